/**
 * Ending a commit that failed: its journal dropped while nothing in the target changed yet, or the
 * commit rolled back, with an error that says what is left and where its backups are.
 */
import { BinderyError } from '../../../../shared/errors.ts';
import { removeBackups, removeTransaction, saveJournal } from './journal-file.ts';
import { backupsOf, rollBack, type SettleContext } from './settle.ts';
import type { DriftedPath } from './types.ts';

/**
 * Ends the journal of a commit that changed nothing in the target (refused by its check or its
 * backups, cancelled or failed before making anything there): it is removed, or where that fails,
 * recorded as rolled back, which recovery leaves alone (a `prepared` journal would have recovery
 * remove the empty folders the commit meant to make, someone else's by then). Best effort: it
 * must not hide the commit's own outcome.
 */
export async function dropJournal(ctx: SettleContext): Promise<void> {
  const { journalDir, record } = ctx;
  try {
    await removeTransaction(journalDir, record.transactionId);
  } catch {
    await saveJournal(journalDir, record, 'rolled_back')
      .then(() => removeBackups(journalDir, record.transactionId))
      .catch(() => undefined); // left prepared: recovery rolls it back
  }
}

/** Undoes a failed commit and returns the error to throw: the cause, and that nothing was changed. */
export async function abandon(ctx: SettleContext, error: unknown): Promise<unknown> {
  const { record, journalDir } = ctx;
  let untouched: DriftedPath[];
  try {
    if (record.state === 'prepared') {
      untouched = await rollBack(ctx, 'rolled_back', false);
    } else {
      if (record.state !== 'rolling_back') await saveJournal(journalDir, record, 'rolling_back');
      untouched = await rollBack(ctx, 'rolled_back', true);
    }
  } catch (cleanupError) {
    return new BinderyError(
      'io_error',
      `Commit to ${record.targetRoot} failed (${messageOf(error)}) and undoing it failed too (${messageOf(cleanupError)}). ` +
        `Its journal ${record.transactionId} is kept: Bindery finishes undoing it at the next start, or run recovery now.`,
      { transactionId: record.transactionId },
    );
  }
  if (untouched.length > 0) {
    return new BinderyError(
      'io_error',
      `Commit to ${record.targetRoot} failed (${messageOf(error)}). Undoing it left ${untouched.length} path(s) not as before: ${leftList(untouched)} ` +
        `Their versions from before the commit are kept in ${backupsOf(ctx)} (each named by its op's number in journal ${record.transactionId}); put them back by hand once the folders are right.`,
      { transactionId: record.transactionId, untouched, backupDir: backupsOf(ctx) },
    );
  }
  if (error instanceof BinderyError) return error;
  return new BinderyError(
    'io_error',
    `Commit to ${record.targetRoot} failed: ${messageOf(error)}. It was undone, so every file is as before; fix the cause and commit again.`,
    { transactionId: record.transactionId },
  );
}

/** The paths a rollback left, grouped by why (the first ten of each), for a message. */
export function leftList(untouched: readonly DriftedPath[]): string {
  const byReason = new Map<string, string[]>();
  for (const { relPath, reason } of untouched) byReason.set(reason, [...(byReason.get(reason) ?? []), relPath]);
  return [...byReason]
    .map(([reason, paths]) => `${paths.slice(0, 10).join(', ')}${paths.length > 10 ? ` and ${paths.length - 10} more` : ''}: ${reason}`)
    .join(' ');
}

/** An error's message, for a sentence of ours. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
