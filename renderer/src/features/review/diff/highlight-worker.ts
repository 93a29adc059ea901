/**
 * The highlighting worker: highlights one side's whole text off the main thread, so a 10,000-line
 * file paints at once (plain) and gains its colours a moment later. Jobs wait one task before
 * running, so a cancel for a file the user already left arrives in time to skip it.
 */
import { highlightLines } from './highlight.ts';
import { tableBuffers } from './token-table.ts';
import type { WorkerMessage, WorkerReply } from './highlight-client.ts';

const queued = new Map<number, Extract<WorkerMessage, { type: 'highlight' }>>();
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerMessage>) => void) | null;
  postMessage(reply: WorkerReply, transfer: Transferable[]): void;
};

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === 'cancel') {
    queued.delete(message.id);
    return;
  }
  queued.set(message.id, message);
  setTimeout(() => {
    const job = queued.get(message.id);
    if (!job) return;
    queued.delete(message.id);
    const lines = highlightLines(job.text, job.language);
    scope.postMessage({ id: job.id, lines }, lines ? tableBuffers(lines) : []);
  }, 0);
};
