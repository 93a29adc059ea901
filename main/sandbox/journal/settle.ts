/**
 * The steps that bring a journaled transaction to an end, shared by commit, undo and recovery:
 * replace a target with its staged version, put an old version back, roll back, finish. Each
 * step looks at the disk first, so running it twice (after a crash mid-way) is harmless.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BinderyError } from '../../../shared/errors.ts';
import { diskPath, symlinkExact } from './disk-path.ts';
import { fsyncDirs, linkOrCopy, removeEmptyDir, removeFile } from './durable-fs.ts';
import { remakeEmptiedDirs, removeEmptiedDirs } from './emptied-dirs.ts';
import { describeState, observe, sameState } from './entry-state.ts';
import {
  backupPath,
  folderOf,
  oldOf,
  removeBackups,
  restoringPath,
  saveJournal,
  stagedPath,
  targetPath,
  type JournalOp,
  type JournalRecord,
} from './journal-file.ts';
import { forEachLimit } from './pool.ts';
import { absoluteIn, folderStillReal } from './safe-path.ts';
import type { DriftedPath, FaultPoint, JournalHooks } from './types.ts';

/** What every settling step needs: where the journal is, the record, and the test hooks. */
export interface SettleContext {
  journalDir: string;
  record: JournalRecord;
  hooks: JournalHooks | undefined;
  concurrency: number;
}

/** Calls the test hook for `point`, if any. */
export async function reach(ctx: { hooks?: JournalHooks | undefined }, point: FaultPoint, relPath?: string): Promise<void> {
  if (ctx.hooks) await ctx.hooks.at(point, relPath);
}

/** Every directory whose entries the transaction changes: the ops' folders and the created folders' parents. */
export function touchedDirs(record: JournalRecord): Set<string> {
  const dirs = new Set<string>();
  for (const op of record.ops) dirs.add(folderOf(record, op));
  for (const dir of record.createdDirs) dirs.add(path.dirname(absoluteIn(record.targetRoot, dir)));
  return dirs;
}

/**
 * Why an op's folder can no longer be written safely (swapped for a symlink or gone), or null.
 * `checked` remembers folders already found sound in this phase, so each is resolved once.
 */
export function folderProblem(record: JournalRecord, op: JournalOp, checked?: Set<string>): string | null {
  if (checked?.has(op.dirRel)) return null;
  if (!folderStillReal(folderOf(record, op))) {
    return 'its folder was moved, removed or replaced by a symlink meanwhile, so Bindery did not write there.';
  }
  checked?.add(op.dirRel);
  return null;
}

/** Puts the staged version of an op in place: one atomic rename (or unlink for a delete). */
export async function replaceOne(record: JournalRecord, op: JournalOp): Promise<void> {
  if (op.kind === 'write') fs.renameSync(diskPath(stagedPath(record, op)), diskPath(targetPath(record, op)));
  else if (oldOf(op).kind !== 'absent') await removeFile(targetPath(record, op));
}

/** Puts an op's old version back atomically (the target holds the new one). */
export async function restoreOld(ctx: SettleContext, op: JournalOp): Promise<void> {
  const { record } = ctx;
  const target = targetPath(record, op);
  const old = oldOf(op);
  if (old.kind === 'absent') {
    await removeFile(target);
    return;
  }
  const temp = restoringPath(record, op);
  await removeFile(temp);
  if (old.kind === 'symlink') {
    symlinkExact(old.target, temp);
  } else {
    const made = await linkOrCopy(backupPath(ctx.journalDir, record.transactionId, op), temp, old.mode);
    if (!made.linked && made.sha256 !== old.sha256) {
      throw new BinderyError(
        'io_error',
        `The backup of ${op.relPath} in commit journal ${record.transactionId} is damaged (its hash does not match), ` +
          'so it was not restored. The journal folder is kept; inspect it before deleting anything.',
        { relPath: op.relPath, transactionId: record.transactionId },
      );
    }
  }
  fs.renameSync(diskPath(temp), diskPath(target));
}

/** Removes the staged and restoring temp files of every op. */
export async function removeTemps(ctx: SettleContext): Promise<void> {
  const { record } = ctx;
  await forEachLimit(record.ops, ctx.concurrency, async (op) => {
    await removeFile(stagedPath(record, op));
    await removeFile(restoringPath(record, op));
  });
}

/**
 * Rolls a transaction back to the versions before it: targets holding the new version get the old
 * one back, anything else someone changed meanwhile is left alone (and reported); then temp files
 * and created directories go, and the journal records `finalState`. Skips looking at targets when
 * nothing can have been replaced yet (state `prepared`).
 */
export async function rollBack(ctx: SettleContext, finalState: 'rolled_back' | 'undone', inspectTargets: boolean): Promise<DriftedPath[]> {
  const { record } = ctx;
  const untouched: DriftedPath[] = [];
  if (inspectTargets) {
    await remakeEmptiedDirs(record);
    await forEachLimit(record.ops, ctx.concurrency, async (op) => {
      const current = (await observe(targetPath(record, op))).state;
      if (sameState(current, oldOf(op))) return;
      const problem = folderProblem(record, op);
      if (problem) {
        untouched.push({ relPath: op.relPath, reason: problem });
        return;
      }
      if (op.next && sameState(current, op.next)) {
        await restoreOld(ctx, op);
        await reach(ctx, 'restored', op.relPath);
        return;
      }
      untouched.push({
        relPath: op.relPath,
        reason: `it now holds ${describeState(current)}, which is neither the version before the commit nor the committed one, so it was left as it is.`,
      });
    });
  }
  await removeTemps(ctx);
  for (const dir of [...record.createdDirs].reverse()) await removeEmptyDir(absoluteIn(record.targetRoot, dir));
  await fsyncDirs(touchedDirs(record));
  await reach(ctx, 'synced');
  if (untouched.length > 0) record.untouched = untouched;
  await saveJournal(ctx.journalDir, record, finalState);
  // Backups of paths someone changed meanwhile are the only copy of the old version: keep them.
  if (untouched.length === 0) await removeBackups(ctx.journalDir, record.transactionId);
  await reach(ctx, 'finished');
  return untouched;
}

/** Ends a commit whose files are all replaced: flush the folders, remove those it emptied, drop temp files, record `committed`. */
export async function finishCommit(ctx: SettleContext, sweepTemps: boolean): Promise<void> {
  await fsyncDirs(touchedDirs(ctx.record));
  await reach(ctx, 'synced');
  if (sweepTemps) await removeTemps(ctx);
  await removeEmptiedDirs(ctx.record);
  // After the renames are durable, never with them: a `committed` that outlived lost renames would end the commit half done.
  await saveJournal(ctx.journalDir, ctx.record, 'committed');
  await reach(ctx, 'finished');
}
