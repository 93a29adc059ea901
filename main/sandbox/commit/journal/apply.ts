/**
 * Applies a set of file changes to a target folder so that a crash at any point leaves every file
 * wholly old or wholly new (DESIGN 2.3). Protocol: validate and resolve every path -> journal
 * (`prepared`, flushed while the targets are compared with what the caller expects) -> back up ->
 * write every new version to a temp file beside its target, then fsync them all -> journal
 * (`committing`, the commit point) -> re-check and rename each -> fsync folders -> remove the
 * folders it emptied (see emptied-dirs.ts) -> journal (`committed`). Backups stay for undo. A
 * commit refused by its check leaves no journal.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BinderyError, CancelledError, UnsafePathError, ValidationError } from '../../../../shared/errors.ts';
import { inspectOps, resolveOps, sourceChanged, type CheckedOp, type SourceInfo } from './check-ops.ts';
import { diskPath, symlinkExact } from './disk-path.ts';
import { cloneHintFor, settleCopy, writeCopy, type Vouch } from './durable-copy.ts';
import { backUp, type BackupResult } from './backup.ts';
import { checkEmptiedDirs } from './emptied-dirs.ts';
import { describeState, observe, readStamp, sameStamp, sameState, stampOf, type RecordedState, type StatStamp } from './entry-state.ts';
import {
  createJournal,
  fileIdOf,
  folderOf,
  newRecord,
  newTransactionId,
  oldOf,
  removeBackups,
  removeTransaction,
  saveJournal,
  stagedPath,
  targetPath,
  transactionDir,
  type FileId,
  type JournalOp,
  type JournalRecord,
} from './journal-file.ts';
import { whileActive } from './ownership.ts';
import { DEFAULT_CONCURRENCY, forEachLimit, STOP } from '../../fs/pool.ts';
import { afterSettlingWaiting } from './recover.ts';
import { absoluteIn, isInside, realTargetRoot, type ResolvedTarget } from './safe-path.ts';
import { backupsOf, finishCommit, folderProblem, reach, replaceOne, rollBack, touchedDirs, type SettleContext } from './settle.ts';
import type { ApplyTransactionInput, ApplyTransactionResult, CommitPhase, DriftedPath, TransactionOp } from './types.ts';

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

/**
 * Ends the journal of a commit that changed nothing in the target (refused by its check or its
 * backups, cancelled or failed before making anything there): it is removed, or where that fails,
 * recorded as rolled back, which recovery leaves alone (a `prepared` journal would have recovery
 * remove the empty folders the commit meant to make, someone else's by then). Best effort: it
 * must not hide the commit's own outcome.
 */
async function dropJournal(ctx: SettleContext): Promise<void> {
  const { journalDir, record } = ctx;
  try {
    await removeTransaction(journalDir, record.transactionId);
  } catch {
    await saveJournal(journalDir, record, 'rolled_back')
      .then(() => removeBackups(journalDir, record.transactionId))
      .catch(() => undefined); // left prepared: recovery rolls it back
  }
}

function toJournalOp(op: TransactionOp, target: ResolvedTarget, index: number): JournalOp {
  return { index, relPath: op.relPath, kind: op.kind, dirRel: target.dirRel, name: target.name, old: null, next: null };
}

function createdDirsOf(ops: readonly TransactionOp[], targets: readonly ResolvedTarget[]): string[] {
  const dirs = new Set<string>();
  targets.forEach((target, i) => {
    if (ops[i]!.kind === 'write') for (const dir of target.missingDirs) dirs.add(dir);
  });
  return [...dirs].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Creates the missing parent folders (recorded in the journal already, so recovery removes them
 * if they are empty). From then on the record names only the folders made here: one someone else
 * made meanwhile is theirs, and no rollback or undo removes it.
 */
async function createDirs(ctx: SettleContext): Promise<void> {
  const made: string[] = [];
  try {
    for (const dir of ctx.record.createdDirs) {
      const absolute = absoluteIn(ctx.record.targetRoot, dir);
      try {
        fs.mkdirSync(diskPath(absolute));
        made.push(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (!fs.lstatSync(diskPath(absolute)).isDirectory()) {
          throw new UnsafePathError(`${absolute} appeared as a non-folder while the commit was starting: nothing was changed; commit again.`);
        }
      }
    }
  } finally {
    ctx.record.createdDirs = made;
    // The folders the ops land in that did not exist at the check exist now: their identities too.
    Object.assign((ctx.record.folderIds ??= {}), folderIdsOf(ctx.record));
  }
}

/** The identity of each existing folder the ops land in, by `dirRel`; one known already is kept. */
function folderIdsOf(record: JournalRecord): Record<string, FileId> {
  const ids: Record<string, FileId> = {};
  for (const op of record.ops) {
    if (op.dirRel in ids || record.folderIds?.[op.dirRel]) continue;
    const id = fileIdOf(folderOf(record, op));
    if (id) ids[op.dirRel] = id;
  }
  return ids;
}

/**
 * Writes every new version to its temp file beside the target, then makes them durable: all are
 * written before any is flushed, so the filesystem writes them out together (see writeCopy). A
 * copy (or clone) whose own hash is not the content the caller reviewed refuses the whole commit:
 * the sandbox changed after the review, and what it holds now was never looked at.
 */
async function stage(ctx: SettleContext, checked: readonly CheckedOp[], signal: AbortSignal | undefined, step: () => void): Promise<void> {
  const { record } = ctx;
  const clones = cloneHintFor(record.targetRoot);
  const changed: string[] = [];
  await forEachLimit(writesOf(record), ctx.concurrency, async (op) => {
    throwIfAborted(signal);
    const { source, op: asked } = checked[op.index]! as CheckedOp & { source: SourceInfo };
    const temp = stagedPath(record, op);
    if (source.kind === 'symlink') {
      symlinkExact(source.target, temp);
      op.next = { kind: 'symlink', target: source.target };
    } else {
      const sha256 = await writeCopy(source.path, temp, source.mode, vouchFor(source), clones);
      const reviewed = asked.kind === 'write' ? asked.sourceContent?.sha256 : undefined;
      if (reviewed !== undefined && sha256 !== reviewed) changed.push(op.relPath);
      op.next = { kind: 'file', sha256, mode: source.mode };
    }
  });
  // Before the commit point: the rollback removes every staged file and nothing in the target changed.
  if (changed.length > 0) throw sourceChanged(changed.sort());
  // Symlinks need no flush of their own: their folders' flush at the commit point covers them.
  await forEachLimit(writesOf(record), ctx.concurrency, async (op) => {
    throwIfAborted(signal);
    if (op.next?.kind === 'file') await settleCopy(stagedPath(record, op), op.next.mode);
    // Recorded before the commit point: a rollback then tells this commit's files from anyone else's.
    op.staged = fileIdOf(stagedPath(record, op)) ?? undefined;
    await reach(ctx, 'staged', op.relPath);
    step();
  });
  for (const op of record.ops) if (op.kind === 'delete') op.next = { kind: 'absent' };
  throwIfAborted(signal);
}

function writesOf(record: JournalRecord): JournalOp[] {
  return record.ops.filter((op) => op.kind === 'write');
}

/**
 * The caller's hash of a source holds for its copy when the stamp of the file copied (taken through
 * the descriptor it was read from, so it is that very file) is still the one that proved the hash
 * at check time: nothing changed it before or during the copy.
 */
function vouchFor(source: Extract<SourceInfo, { kind: 'file' }>): Vouch | undefined {
  const { known } = source;
  if (!known) return undefined;
  return (copiedFrom) => (sameStamp(stampOf(copiedFrom), known.stamp) ? known.sha256 : null);
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

/** Undoes a failed commit and returns the error to throw: the cause, and that nothing was changed. */
async function abandon(ctx: SettleContext, error: unknown): Promise<unknown> {
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

type Reporter = (phase: CommitPhase, done: number, total: number) => void;

/** Reports `phase` at 0 of `total` now, and one step further at each call of the returned function. */
function counter(phase: CommitPhase, total: number, report: Reporter): () => void {
  let done = 0;
  report(phase, 0, total);
  return () => report(phase, ++done, total);
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError('Commit cancelled before any file was replaced: nothing was changed.');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
