/** Looking after old journals: list them (for "undo last commit" and diagnostics) and purge old backups. */
import path from 'node:path';
import { realPathExact } from './disk-path.ts';
import { isFinal, listTransactionIds, readJournalOrNull, removeTransaction, type JournalState } from './journal-file.ts';
import { activeTransactions } from './ownership.ts';

/** One transaction as a list shows it. */
export interface TransactionSummary {
  transactionId: string;
  state: JournalState;
  targetRoot: string;
  createdAt: string;
  updatedAt: string;
  written: string[];
  deleted: string[];
  /** Paths a rollback or undo left alone because someone changed them meanwhile. */
  untouched: Array<{ relPath: string; reason: string }>;
}

/** Every transaction in `journalDir`, oldest first; pass `targetRoot` to keep one folder's. */
export async function listTransactions(journalDir: string, targetRoot?: string): Promise<TransactionSummary[]> {
  const summaries: TransactionSummary[] = [];
  if (targetRoot !== undefined) targetRoot = await realPathExact(targetRoot).catch(() => path.resolve(targetRoot!));
  for (const transactionId of await listTransactionIds(path.resolve(journalDir))) {
    const record = await readJournalOrNull(journalDir, transactionId);
    if (!record || (targetRoot !== undefined && record.targetRoot !== targetRoot)) continue;
    summaries.push({
      transactionId,
      state: record.state,
      targetRoot: record.targetRoot,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      written: record.ops.filter((op) => op.kind === 'write').map((op) => op.relPath),
      deleted: record.ops.filter((op) => op.kind === 'delete').map((op) => op.relPath),
      untouched: record.untouched ?? [],
    });
  }
  return summaries;
}

/**
 * Deletes finished transactions (and their backups) created before `before`; after that they can
 * no longer be undone. Unfinished ones are never purged: recovery needs them.
 */
export async function purgeTransactions(journalDir: string, before: Date): Promise<string[]> {
  const purged: string[] = [];
  for (const transactionId of await listTransactionIds(path.resolve(journalDir))) {
    if (activeTransactions.has(transactionId)) continue;
    const record = await readJournalOrNull(journalDir, transactionId);
    if (!record || !isFinal(record.state) || Date.parse(record.createdAt) >= before.getTime()) continue;
    await removeTransaction(journalDir, transactionId);
    purged.push(transactionId);
  }
  return purged;
}

/**
 * Deletes the named transactions and their backups once the undo they served is gone (their
 * sandbox discarded for good). Only finished ones go: an unfinished one is recovery's, and one
 * this process is working on is left alone. Returns the ids deleted.
 */
export async function purgeTransactionsById(journalDir: string, ids: Iterable<string>): Promise<string[]> {
  const wanted = new Set(ids);
  const purged: string[] = [];
  // Only names the journal folder holds are touched, so an id from elsewhere cannot point outside it.
  for (const transactionId of await listTransactionIds(path.resolve(journalDir))) {
    if (!wanted.has(transactionId) || activeTransactions.has(transactionId)) continue;
    const record = await readJournalOrNull(journalDir, transactionId);
    if (!record || !isFinal(record.state)) continue;
    await removeTransaction(journalDir, transactionId);
    purged.push(transactionId);
  }
  return purged;
}
