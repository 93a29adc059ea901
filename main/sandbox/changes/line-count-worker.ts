/**
 * Line counts of large texts on a worker thread, so a review server keeps answering while a
 * multi-megabyte file is counted. One worker, made when first needed and unref'd (it never keeps
 * a process alive), takes the requests in turn.
 */
import { Worker } from 'node:worker_threads';
import { countLineChanges, lineMatchSource, MAX_EDITS } from '../../../shared/diff/line-match.ts';
import { count } from './counters.ts';

/** Texts together at least this large are counted off the main thread. */
export const OFF_THREAD_BYTES = 512 * 1024;

type Reply = { id: number; counts?: { additions: number; deletions: number }; error?: string };

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, { resolve: (counts: { additions: number; deletions: number }) => void; reject: (error: Error) => void }>();

function started(): Worker {
  if (worker) return worker;
  // Under tsx (esbuild's keepNames) inner functions are wrapped in __name(), a helper the source brings along nowhere.
  const script = `const __name = (fn) => fn;
${lineMatchSource()}
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, before, after, maxEdits }) => {
  try {
    const text = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    parentPort.postMessage({ id, counts: ${countLineChanges.name}(text(before), text(after), maxEdits) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.stack || error) });
  }
});`;
  // None of the parent's node flags: the script is plain CommonJS, and an inherited --input-type=module would break it.
  const made = new Worker(script, { eval: true, execArgv: [] });
  made.unref();
  made.on('message', (reply: Reply) => {
    const entry = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.counts) count('countedOffThread');
    if (reply.counts) entry?.resolve(reply.counts);
    else entry?.reject(new Error(`Counting lines failed: ${reply.error}`));
    if (waiting.size === 0) made.unref();
  });
  made.on('error', (error) => fail(made, error));
  made.on('exit', () => fail(made, new Error('The line-count worker stopped.')));
  return (worker = made);
}

/** Rejects what waits on a worker that is gone; the next request starts another. */
function fail(gone: Worker, error: Error): void {
  if (worker === gone) worker = null;
  for (const entry of waiting.values()) entry.reject(error);
  waiting.clear();
}

/** Lines added and deleted between two texts, counted on the worker thread (in this thread should the worker fail). */
export async function countOffThread(before: Buffer, after: Buffer): Promise<{ additions: number; deletions: number }> {
  try {
    const running = started();
    const id = nextId++;
    const answer = new Promise<{ additions: number; deletions: number }>((resolve, reject) => waiting.set(id, { resolve, reject }));
    running.ref();
    running.postMessage({ id, before, after, maxEdits: MAX_EDITS });
    return await answer;
  } catch {
    return countLineChanges(before.toString('utf8'), after.toString('utf8'), MAX_EDITS);
  }
}
