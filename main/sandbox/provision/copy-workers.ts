/**
 * Copies many files on worker threads with synchronous copyFile + utimes: the same syscalls as
 * `cp -a`, without the per-call cost of a promise and a thread-pool round trip, and on several
 * cores. Cancellation is a shared flag the workers read before each file; progress is batched.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { CancelledError } from '../../../shared/errors.ts';

/** One file to copy: source, destination, mtime in seconds (kept on the copy). */
export type CopyJob = [from: string, to: string, mtimeSeconds: number];

/** Below this many files one thread is as fast (starting workers costs a few milliseconds each). */
export const WORKER_THRESHOLD = 2000;

const PROGRESS_EVERY = 256;

// Plain CommonJS evaluated in the worker: it needs nothing but node:fs, and no TypeScript loader.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { jobs, flag, cancel, every } = workerData;
const stop = new Int32Array(cancel);
let pending = 0;
let current = '';
try {
  const vanished = [];
  for (const [from, to, mtime] of jobs) {
    if (Atomics.load(stop, 0) === 1) break;
    current = from;
    try {
      fs.copyFileSync(from, to, flag);
      fs.utimesSync(to, mtime, mtime);
    } catch (error) {
      // A file deleted from a live folder while it is copied is left out, not a failure.
      if (error.code !== 'ENOENT' || fs.existsSync(from)) throw error;
      vanished.push(from);
    }
    if (++pending === every) { parentPort.postMessage({ done: pending }); pending = 0; }
  }
  parentPort.postMessage({ done: pending, finished: true, vanished });
} catch (error) {
  parentPort.postMessage({ done: pending, finished: true, error: { message: error.message, code: error.code, path: current } });
}
`;

/** Copies `jobs` with `threads` workers; `onDone` gets counts as they finish. Returns the sources that vanished meanwhile. */
export async function copyOnWorkers(jobs: CopyJob[], flag: number, options: { signal?: AbortSignal; onDone?: (count: number) => void; threads?: number } = {}): Promise<Set<string>> {
  const threads = Math.max(1, Math.min(options.threads ?? Math.min(os.availableParallelism(), 4), Math.ceil(jobs.length / 500)));
  const cancel = new SharedArrayBuffer(4);
  const stop = new Int32Array(cancel);
  const abort = (): void => void Atomics.store(stop, 0, 1);
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    const failures: Array<{ message: string; code?: string; path: string }> = [];
    const vanished = new Set<string>();
    await Promise.all(
      Array.from({ length: threads }, (_, index) => {
        const share = jobs.filter((_, j) => j % threads === index);
        return new Promise<void>((resolve, reject) => {
          const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { jobs: share, flag, cancel, every: PROGRESS_EVERY } });
          worker.on('message', (message: { done: number; finished?: boolean; vanished?: string[]; error?: { message: string; code?: string; path: string } }) => {
            options.onDone?.(message.done);
            for (const from of message.vanished ?? []) vanished.add(from);
            if (message.error) {
              failures.push(message.error);
              abort();
            }
            if (message.finished) void worker.terminate().then(() => resolve());
          });
          worker.on('error', reject);
        });
      }),
    );
    if (options.signal?.aborted) throw new CancelledError('Provisioning was cancelled; nothing was kept.');
    const failure = failures[0];
    if (failure) throw Object.assign(new Error(`Copying ${failure.path} failed: ${failure.message}`), { code: failure.code });
    return vanished;
  } finally {
    options.signal?.removeEventListener('abort', abort);
  }
}
