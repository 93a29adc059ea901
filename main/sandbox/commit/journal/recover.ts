/**
 * Recovery after a crash: every unfinished journal is rolled forward (past the commit point, all
 * new versions are staged) or back (before it, or while undoing). Each step looks at the disk
 * before acting, so a crash during recovery is recovered by running it again.
 */
import path from 'node:path';
import { BinderyError, ConflictError, NotFoundError } from '../../../../shared/errors.ts';
import { observe, sameState, type RecordedState } from './entry-state.ts';
import {
  isFinal,
  listTransactionIds,
  oldOf,
  readJournalOrNull,
  removeTransaction,
  saveJournal,
  stagedPath,
  sweepTrash,
  TEMP_PREFIX,
  targetPath,
  transactionAgeMs,
  type JournalOp,
  type JournalRecord,
} from './journal-file.ts';
import { activeTransactions, ownedByLiveProcess, whileActive, withRootLock } from './ownership.ts';
import { isLockBusy } from './process-lock.ts';
import { DEFAULT_CONCURRENCY, forEachLimit } from '../../fs/index.ts';
import { folderStillReal, isInside } from './safe-path.ts';
import { finishCommit, folderProblem, reach, removedByCommit, replaceOne, rollBack, type SettleContext } from './settle.ts';
import type { DriftedPath, OnRecovered, RecoverOptions, RecoveredTransaction } from './types.ts';

/**
 * A transaction folder without a readable state is a commit that crashed before its journal was
 * written (the target was not touched), or one being created right now by another process; it
 * is removed only once older than this.
 */
const UNWRITTEN_GRACE_MS = 10 * 60 * 1000;

/**
 * Finishes or undoes every interrupted transaction in `journalDir` (skipping those a live process
 * owns) and reports what it did. Run it at start, before any new commit.
 */
export async function recoverTransactions(journalDir: string, options: RecoverOptions = {}): Promise<RecoveredTransaction[]> {
  const dir = path.resolve(journalDir);
  const results: RecoveredTransaction[] = [];
  const failures: Array<{ transactionId: string; message: string }> = [];
  for (const transactionId of await listTransactionIds(dir)) {
    try {
      const outcome = await recoverOne(dir, transactionId, options);
      if (outcome) results.push(outcome);
    } catch (error) {
      failures.push({ transactionId, message: error instanceof Error ? error.message : String(error) });
    }
  }
  await sweepTrash(dir);
  if (failures.length > 0) {
    throw new BinderyError(
      'io_error',
      `Recovery could not finish ${failures.length} interrupted commit(s): ${failures.map((f) => `${f.transactionId}: ${f.message}`).join('; ')}. ` +
        'Their journals are kept untouched; fix the cause (e.g. a missing folder or permissions) and start again.',
      { recovered: results, failures },
    );
  }
  return results;
}

async function recoverOne(journalDir: string, transactionId: string, options: RecoverOptions): Promise<RecoveredTransaction | null> {
  if (activeTransactions.has(transactionId)) return null;
  const peek = await readJournalOrNull(journalDir, transactionId);
  if (!peek) {
    if ((await transactionAgeMs(journalDir, transactionId)) > UNWRITTEN_GRACE_MS) await removeTransaction(journalDir, transactionId);
    return null;
  }
  // A live owner is at work on it only while it holds the folder's lock: then it is left alone at
  // once; one such an owner left (a failure it did not finish) is recovered like any other.
  const live = ownedByLiveProcess(peek);
  const locked: Locked = (work) =>
    withRootLock(journalDir, peek.targetRoot, work, live ? 0 : undefined).catch((error: unknown) => {
      if (live && isLockBusy(error)) return null;
      throw error;
    });
  if (isFinal(peek.state)) return unrecordedCommit(journalDir, peek, options, locked);
  return locked(async () => {
    const done = await settleLocked(journalDir, transactionId, options);
    if (done) options.onSettled?.(done);
    return done;
  });
}

/** Runs work under the lock of a journal's folder; null when its live owner holds it. */
type Locked = (work: () => Promise<RecoveredTransaction | null>) => Promise<RecoveredTransaction | null>;

/**
 * A finished commit or undo the caller never recorded (its process died between the journal's last
 * state and the caller's record): reported as completed or undone, under its folder's lock, so the
 * caller records it (and a commit's backups serve an undo) exactly once, however many processes
 * recover at once.
 */
async function unrecordedCommit(journalDir: string, peek: JournalRecord, options: RecoverOptions, locked: Locked): Promise<RecoveredTransaction | null> {
  const unrecorded = (record: JournalRecord | null): record is JournalRecord =>
    (record?.state === 'committed' || record?.state === 'undone') && !!record.labels && !!options.unrecorded?.(record.transactionId, record.labels, record.state);
  if (!unrecorded(peek)) return null;
  return locked(async () => {
    const record = await readJournalOrNull(journalDir, peek.transactionId);
    if (!unrecorded(record)) return null;
    const done: RecoveredTransaction =
      record.state === 'undone'
        ? { transactionId: record.transactionId, outcome: 'undone', labels: record.labels }
        : { transactionId: record.transactionId, outcome: 'completed', ...completedPaths(record), labels: record.labels };
    options.onSettled?.(done);
    return done;
  });
}

/** What a completed commit wrote and deleted, and what each path holds now. */
function completedPaths(record: JournalRecord): Pick<RecoveredTransaction, 'written' | 'deleted' | 'committed'> {
  return {
    written: record.ops.filter((op) => op.kind === 'write').map((op) => op.relPath),
    deleted: record.ops.filter((op) => op.kind === 'delete').map((op) => op.relPath),
    committed: Object.fromEntries(record.ops.map((op) => [op.relPath, op.next as RecordedState])),
  };
}

/**
 * Interrupted transactions whose target folder was not there when recovery looked (an unmounted
 * drive, a folder moved away), by id. Settling them then would end them half done, so they wait
 * for the folder to come back.
 */
const waiting = new Map<string, { journalDir: string; targetRoot: string }>();

/** Finishes or undoes one interrupted transaction; the caller holds its target root's lock. */
function settleLocked(journalDir: string, transactionId: string, options: RecoverOptions): Promise<RecoveredTransaction | null> {
  return whileActive(transactionId, async () => {
    // Re-read under the lock: a commit of this process, or another process, may have finished it meanwhile.
    const record = await readJournalOrNull(journalDir, transactionId);
    if (!record || isFinal(record.state)) {
      waiting.delete(transactionId);
      return null;
    }
    const { targetRoot } = record;
    if (!folderStillReal(targetRoot)) {
      waiting.set(transactionId, { journalDir, targetRoot });
      return {
        transactionId,
        outcome: 'waiting',
        reason: `its folder ${targetRoot} is not there as it was (an unmounted drive, or moved away?): its journal is kept, and Bindery finishes it once the folder is back, at the next start or before the next commit or undo there.`,
      };
    }
    const outcome = await settle({ journalDir, record, hooks: options.hooks, concurrency: options.concurrency ?? DEFAULT_CONCURRENCY });
    waiting.delete(transactionId);
    return outcome;
  });
}

async function settle(ctx: SettleContext): Promise<RecoveredTransaction> {
  const { transactionId, state, labels } = ctx.record;
  let outcome: RecoveredTransaction;
  switch (state) {
    case 'prepared':
      outcome = rolledBack(transactionId, await rollBack(ctx, 'rolled_back', false));
      break;
    case 'committing':
      outcome = await rollForward(ctx);
      break;
    case 'undoing':
      outcome = rolledBack(transactionId, await rollBack(ctx, 'undone', true), 'undone');
      break;
    default:
      outcome = rolledBack(transactionId, await rollBack(ctx, 'rolled_back', true));
  }
  if (outcome.outcome === 'completed') Object.assign(outcome, completedPaths(ctx.record));
  return labels ? { ...outcome, labels } : outcome;
}

/**
 * Runs `work` (a commit or undo to `rootReal`, reached as `requested`) under the folder's lock,
 * after settling the interrupted transactions that waited for a folder to come back and that it
 * touches (see `waiting`): those to a folder inside or around it that is back, each under its own
 * folder's lock before this one is taken, then those to this very folder. Refuses, with nothing
 * written, while one to this folder cannot be settled yet (it is reached through a symlink now) or
 * settling one fails. One to a folder inside or around it that is still away is left waiting.
 */
export async function afterSettlingWaiting<T>(ownJournalDir: string, rootReal: string, requested: string, onRecovered: OnRecovered | undefined, work: () => Promise<T>): Promise<T> {
  const touching = (root: string) => [rootReal, requested].some((mine) => isInside(mine, root) || isInside(root, mine));
  for (const [transactionId, { journalDir, targetRoot }] of [...waiting]) {
    if (targetRoot === rootReal || targetRoot === requested || !touching(targetRoot) || !folderStillReal(targetRoot)) continue;
    await withRootLock(journalDir, targetRoot, () => settleFirst(transactionId, journalDir, targetRoot, onRecovered));
  }
  return withRootLock(ownJournalDir, rootReal, async () => {
    for (const [transactionId, { journalDir, targetRoot }] of [...waiting]) {
      if (targetRoot !== rootReal && targetRoot !== requested) continue;
      const outcome = await settleFirst(transactionId, journalDir, targetRoot, onRecovered);
      if (outcome?.outcome === 'waiting') throw notFinished(transactionId, targetRoot, outcome.reason!);
    }
    return work();
  });
}

/** Settles one waiting transaction under its folder's lock (held by the caller), and reports it unless it still waits. */
async function settleFirst(transactionId: string, journalDir: string, targetRoot: string, onRecovered: OnRecovered | undefined): Promise<RecoveredTransaction | null> {
  let outcome: RecoveredTransaction | null;
  try {
    outcome = await settleLocked(journalDir, transactionId, {});
  } catch (error) {
    throw notFinished(transactionId, targetRoot, `finishing it failed (${error instanceof Error ? error.message : String(error)}); fix the cause and try again.`);
  }
  if (outcome && outcome.outcome !== 'waiting') onRecovered?.(outcome);
  return outcome;
}

function notFinished(transactionId: string, targetRoot: string, why: string): ConflictError {
  return new ConflictError(`An interrupted commit or undo to ${targetRoot} (${transactionId}) is not finished, so nothing was written: ${why}`, {
    transactionId,
    targetRoot,
  });
}

/**
 * Gives up a waiting transaction whose folder will not come back as it was (a drive gone for good,
 * a folder restored from a copy): it ends as rolled back without touching any folder, every path
 * listed as left alone, and its backups are kept in its journal folder for whoever wants them.
 * Refused while the folder is back (then it is settled, not abandoned) or for any other transaction.
 */
export async function abandonTransaction(journalDir: string, transactionId: string): Promise<RecoveredTransaction> {
  const record = await readJournalOrNull(journalDir, transactionId);
  if (!record) throw new NotFoundError(`No commit journal ${transactionId} in ${journalDir}: run recovery to see which commits wait.`);
  return withRootLock(journalDir, record.targetRoot, () =>
    whileActive(transactionId, async () => {
      const current = await readJournalOrNull(journalDir, transactionId);
      if (!current || isFinal(current.state) || !waiting.has(transactionId)) {
        throw new ConflictError(`Commit ${transactionId} is not waiting for its folder, so it cannot be abandoned: only a commit recovery reported as waiting can.`, { transactionId });
      }
      if (folderStillReal(current.targetRoot)) {
        throw new ConflictError(`The folder ${current.targetRoot} of commit ${transactionId} is back: commit to it or run recovery, which finishes the commit instead.`, { transactionId });
      }
      const reason =
        current.state === 'prepared'
          ? `abandoned while its folder ${current.targetRoot} was away, before the commit changed this path; a ${TEMP_PREFIX} file it may have left there is not removed.`
          : `abandoned while its folder ${current.targetRoot} was away: this path was not put back; its old version stays in the journal's backup folder.`;
      current.untouched = current.ops.map((op) => ({ relPath: op.relPath, reason }));
      await saveJournal(journalDir, current, 'rolled_back');
      waiting.delete(transactionId);
      return { transactionId, outcome: 'rolled_back', untouched: current.untouched, ...(current.labels ? { labels: current.labels } : {}) };
    }),
  );
}

function rolledBack(transactionId: string, untouched: DriftedPath[], outcome: 'rolled_back' | 'undone' = 'rolled_back'): RecoveredTransaction {
  return untouched.length > 0 ? { transactionId, outcome, untouched } : { transactionId, outcome };
}

/**
 * Past the commit point every new version is durable in its temp file, so the commit can finish:
 * each target still holding the old version gets the new one. If a target holds neither (someone
 * changed it), or a staged file is missing, the whole commit is rolled back instead.
 */
async function rollForward(ctx: SettleContext): Promise<RecoveredTransaction> {
  const { record } = ctx;
  const pending: JournalOp[] = [];
  const blocked: JournalOp[] = [];
  await forEachLimit(record.ops, ctx.concurrency, async (op) => {
    // Nothing is read through a folder that is not the recorded one: such an op blocks the commit.
    if (folderProblem(record, op) !== null) {
      // A deletion in a folder the commit itself removed once emptied is done: nothing can be there.
      if (!(op.kind === 'delete' && removedByCommit(record, op))) blocked.push(op);
      return;
    }
    const current = (await observe(targetPath(record, op))).state;
    if (op.next && sameState(current, op.next)) return;
    if (sameState(current, oldOf(op)) && folderProblem(record, op) === null && (await stagedReady(ctx, op))) pending.push(op);
    else blocked.push(op);
  });
  if (blocked.length > 0) {
    await saveJournal(ctx.journalDir, record, 'rolling_back');
    return rolledBack(record.transactionId, await rollBack(ctx, 'rolled_back', true));
  }
  await forEachLimit(pending, ctx.concurrency, async (op) => {
    await replaceOne(record, op);
    await reach(ctx, 'replaced', op.relPath);
  });
  await finishCommit(ctx, true);
  return { transactionId: record.transactionId, outcome: 'completed' };
}

async function stagedReady(ctx: SettleContext, op: JournalOp): Promise<boolean> {
  if (op.kind === 'delete') return true;
  if (!op.next) return false;
  return sameState((await observe(stagedPath(ctx.record, op))).state, op.next);
}
