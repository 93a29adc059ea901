/**
 * Applies a set of file changes to a target folder so that a crash at any point leaves every file
 * wholly old or wholly new (DESIGN 2.3). Protocol: validate and resolve every path -> journal
 * (`prepared`, flushed while the targets are compared with what the caller expects) -> back up ->
 * write every new version to a temp file beside its target, then fsync them all (stage.ts) ->
 * journal (`committing`, the commit point) -> re-check and rename each -> fsync folders -> remove
 * the folders it emptied (see emptied-dirs.ts) -> journal (`committed`). Backups stay for undo. A
 * commit refused by its check leaves no journal; a failed one is rolled back (abandon.ts).
 */
import path from 'node:path';
import { BinderyError, ValidationError } from '../../../../shared/errors.ts';
import { DEFAULT_CONCURRENCY, forEachLimit, STOP } from '../../fs/index.ts';
import { abandon, dropJournal, messageOf } from './abandon.ts';
import { inspectOps, resolveOps, type CheckedOp } from './check-ops.ts';
import { backUp, type BackupResult } from './backup.ts';
import { checkEmptiedDirs } from './emptied-dirs.ts';
import { describeState, observe, readStamp, sameStamp, sameState, type RecordedState, type StatStamp } from './entry-state.ts';
import { createJournal, newRecord, newTransactionId, oldOf, saveJournal, targetPath, transactionDir, type JournalOp } from './journal-file.ts';
import { whileActive } from './ownership.ts';
import { afterSettlingWaiting } from './recover.ts';
import { isInside, realTargetRoot, type ResolvedTarget } from './safe-path.ts';
import { backupsOf, finishCommit, folderProblem, reach, replaceOne, rollBack, touchedDirs, type SettleContext } from './settle.ts';
import { createDirs, createdDirsOf, folderIdsOf, stage, throwIfAborted, writesOf } from './stage.ts';
import type { ApplyTransactionInput, ApplyTransactionResult, CommitPhase, DriftedPath, TransactionOp } from './types.ts';

export { leftList } from './abandon.ts';

/**
 * Commits `ops` to `targetRoot`, journaled in `journalDir`. Returns `drifted` (with nothing
 * changed) when a target is not as expected, at check time or just before its rename.
 */
export async function applyTransaction(input: ApplyTransactionInput): Promise<ApplyTransactionResult> {
  const rootReal = await realTargetRoot(input.targetRoot);
  const journalDir = path.resolve(input.journalDir);
  if (isInside(rootReal, journalDir) || isInside(input.targetRoot, journalDir)) {
    throw new ValidationError(`The commit journal folder ${journalDir} is inside the target ${rootReal}: keep journals in Bindery's data folder.`);
  }
  return afterSettlingWaiting(journalDir, rootReal, path.resolve(input.targetRoot), input.onRecovered, () => commit(input, journalDir, rootReal));
}

async function commit(input: ApplyTransactionInput, journalDir: string, rootReal: string): Promise<ApplyTransactionResult> {
  const concurrency = input.concurrency ?? DEFAULT_CONCURRENCY;
  const report = (phase: CommitPhase, done: number, total: number) => input.onProgress?.({ phase, done, total });
  throwIfAborted(input.signal);
  report('checking', 0, input.ops.length);
  const targets = resolveOps(rootReal, input.ops);
  const emptied = checkEmptiedDirs(rootReal, input.removeDirs ?? [], input.ops);
  const record = newRecord(newTransactionId(), rootReal, createdDirsOf(input.ops, targets), targets.map((target, i) => toJournalOp(input.ops[i]!, target, i)), emptied);
  if (input.labels) record.labels = input.labels;
  record.folderIds = folderIdsOf(record);
  const ctx: SettleContext = { journalDir, record, hooks: input.hooks, concurrency };
  // The journal names every temp file the commit may make before the targets are looked at, so its
  // flush runs while they are: looking changes nothing on disk and needs no durable journal.
  const flushing = (await createJournal(journalDir, record))();
  return whileActive(record.transactionId, async () => {
    let started: Started | Extract<ApplyTransactionResult, { kind: 'drifted' }>;
    try {
      started = await start(ctx, input, targets, flushing, report);
    } catch (error) {
      await dropJournal(ctx);
      if (error instanceof BinderyError) throw error;
      throw new BinderyError(
        'io_error',
        `Commit to ${record.targetRoot} failed before changing anything (${messageOf(error)}): every file is as before; fix the cause and commit again.`,
      );
    }
    if (started.kind === 'drifted') {
      await dropJournal(ctx);
      return started;
    }
    const { checked, backups, step } = started;
    try {
      await createDirs(ctx);
      await stage(ctx, checked, input.signal, step);
      // The commit point: staged files, their folders and the backups become durable with the decision.
      const backupDir = path.join(transactionDir(journalDir, record.transactionId), 'backup');
      await saveJournal(journalDir, record, 'committing', { alsoSync: [...touchedDirs(record), backupDir] });
      await reach(ctx, 'decided');
      const replaceDrift = await replaceAll(ctx, backups.trusted, report);
      if (replaceDrift.length > 0) {
        await saveJournal(journalDir, record, 'rolling_back');
        // A drifted path was never replaced by this commit: what someone put there stays, as the drift says.
        const untouched = (await rollBack(ctx, 'rolled_back', true)).filter((left) => !replaceDrift.some((d) => d.relPath === left.relPath));
        return untouched.length > 0 ? { kind: 'drifted', paths: replaceDrift, untouched, backupDir: backupsOf(ctx) } : { kind: 'drifted', paths: replaceDrift };
      }
      report('finishing', 0, 1);
      await finishCommit(ctx, false);
      report('finishing', 1, 1);
      return {
        kind: 'applied',
        transactionId: record.transactionId,
        written: writesOf(record).map((op) => op.relPath),
        deleted: record.ops.filter((op) => op.kind === 'delete').map((op) => op.relPath),
        committed: Object.fromEntries(record.ops.map((op) => [op.relPath, op.next as RecordedState])),
      };
    } catch (error) {
      throw await abandon(ctx, error);
    }
  });
}

/** A commit whose check and backups passed: what staging and the re-check before each rename need. */
interface Started {
  kind: 'started';
  checked: CheckedOp[];
  backups: BackupResult;
  /** Counts one more step of the staging phase. */
  step: () => void;
}

/**
 * The part of a commit that changes nothing in the target: the check (while the journal's flush
 * runs) and the backups. Returns drift as a result; the caller drops the journal on drift and on
 * failure, since there is nothing to roll back.
 */
async function start(
  ctx: SettleContext,
  input: ApplyTransactionInput,
  targets: readonly ResolvedTarget[],
  flushing: Promise<void>,
  report: Reporter,
): Promise<Started | Extract<ApplyTransactionResult, { kind: 'drifted' }>> {
  const { record } = ctx;
  const { checked, drifted } = await afterFlush(flushing, inspectOps(input.ops, targets, ctx.concurrency));
  if (drifted.length > 0) return { kind: 'drifted', paths: drifted };
  // checkExpectation refused directories and special files, so each is a state the journal can record.
  checked.forEach(({ observed }, i) => (record.ops[i]!.old = observed.state as RecordedState));
  throwIfAborted(input.signal);
  await reach(ctx, 'checked');
  const step = counter('staging', record.ops.filter((op) => oldOf(op).kind === 'file').length + writesOf(record).length, report);
  const backups = await backUp(ctx, checked, step);
  if (backups.drifted.length > 0) return { kind: 'drifted', paths: backups.drifted };
  await reach(ctx, 'prepared');
  throwIfAborted(input.signal);
  return { kind: 'started', checked, backups, step };
}

/** What `work` gives once `flush` is done too; the first failure of either is thrown after both settle. */
async function afterFlush<T>(flush: Promise<void>, work: Promise<T>): Promise<T> {
  const [flushed, worked] = await Promise.allSettled([flush, work]);
  if (flushed.status === 'rejected') throw flushed.reason;
  if (worked.status === 'rejected') throw worked.reason;
  return worked.value;
}

function toJournalOp(op: TransactionOp, target: ResolvedTarget, index: number): JournalOp {
  return { index, relPath: op.relPath, kind: op.kind, dirRel: target.dirRel, name: target.name, old: null, next: null };
}

/**
 * Past the commit point: re-checks each target and renames its new version over it. The re-check
 * compares the file's stamp with the one taken at backup time when that is trustworthy (see
 * backUp), and the content otherwise.
 */
async function replaceAll(ctx: SettleContext, trusted: ReadonlyMap<number, StatStamp>, report: Reporter): Promise<DriftedPath[]> {
  const { record } = ctx;
  const drifted: DriftedPath[] = [];
  const soundFolders = new Set<string>();
  let done = 0;
  report('replacing', 0, record.ops.length);
  await forEachLimit(record.ops, ctx.concurrency, async (op) => {
    await reach(ctx, 'before_replace', op.relPath);
    const problem = (await unchanged(targetPath(record, op), op, trusted.get(op.index)))
      ? folderProblem(record, op, soundFolders)
      : `it changed while the commit was running (was ${describeState(oldOf(op))}): review it and commit again.`;
    if (problem) {
      drifted.push({ relPath: op.relPath, reason: problem });
      return STOP;
    }
    await replaceOne(record, op);
    await reach(ctx, 'replaced', op.relPath);
    report('replacing', ++done, record.ops.length);
  });
  return drifted;
}

async function unchanged(target: string, op: JournalOp, stamp: StatStamp | undefined): Promise<boolean> {
  if (stamp) {
    const now = readStamp(target);
    if (now && sameStamp(now, stamp)) return true;
  }
  return sameState((await observe(target)).state, oldOf(op));
}

type Reporter = (phase: CommitPhase, done: number, total: number) => void;

/** Reports `phase` at 0 of `total` now, and one step further at each call of the returned function. */
function counter(phase: CommitPhase, total: number, report: Reporter): () => void {
  let done = 0;
  report(phase, 0, total);
  return () => report(phase, ++done, total);
}
