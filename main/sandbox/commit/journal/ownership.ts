/**
 * Who may touch a transaction right now: one commit, undo or recovery at a time per target root,
 * across every process sharing the data directory (see process-lock.ts), and recovery keeps away
 * from journals whose owner process is still alive.
 */
import os from 'node:os';
import type { JournalRecord } from './journal-file.ts';
import { locksDirOf, withLocks } from './process-lock.ts';

const active = new Set<string>();

/** Transactions this process is working on; recovery must not touch them. */
export const activeTransactions: ReadonlySet<string> = active;

/**
 * Runs `work` holding the lock of the target root (symlinks resolved) that every process using
 * `journalDir` takes: after every earlier piece of work on it has settled, here or elsewhere.
 * Work that holds it already (a commit around its journal) runs at once.
 */
export async function withRootLock<T>(journalDir: string, rootReal: string, work: () => Promise<T>, timeoutMs?: number): Promise<T> {
  return withLocks(locksDirOf(journalDir), [{ key: rootReal, label: `working on ${rootReal}` }], work, timeoutMs);
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
