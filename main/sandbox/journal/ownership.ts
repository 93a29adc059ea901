/**
 * Who may touch a transaction right now: one commit, undo or recovery at a time per target root
 * in this process, and recovery keeps away from journals whose owner process is still alive.
 */
import os from 'node:os';
import type { JournalRecord } from './journal-file.ts';

const rootQueues = new Map<string, Promise<unknown>>();
const active = new Set<string>();

/** Transactions this process is working on; recovery must not touch them. */
export const activeTransactions: ReadonlySet<string> = active;

/** Runs `work` after every earlier piece of work on the same target root has settled. */
export async function withRootLock<T>(rootReal: string, work: () => Promise<T>): Promise<T> {
  const previous = rootQueues.get(rootReal) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(work);
  const tail = current.catch(() => undefined);
  rootQueues.set(rootReal, tail);
  try {
    return await current;
  } finally {
    if (rootQueues.get(rootReal) === tail) rootQueues.delete(rootReal);
  }
}

/** Runs `work` with the transaction marked active in this process. */
export async function whileActive<T>(transactionId: string, work: () => Promise<T>): Promise<T> {
  active.add(transactionId);
  try {
    return await work();
  } finally {
    active.delete(transactionId);
  }
}

/**
 * True when another live process on this machine owns the journal. A journal written by this
 * process id counts as live only while it is active here (after a restart the id may be reused).
 */
export function ownedByLiveProcess(record: JournalRecord): boolean {
  if (active.has(record.transactionId)) return true;
  const { pid, host } = record.owner;
  if (host !== os.hostname() || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
