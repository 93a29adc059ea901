/**
 * The steps that bring a journaled transaction to an end, shared by commit, undo and recovery:
 * replace a target with its staged version, put an old version back, roll back, finish. Each
 * step looks at the disk first, so running it twice (after a crash mid-way) is harmless.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BinderyError } from '../../../../shared/errors.ts';
import { diskPath, symlinkExact } from './disk-path.ts';
import { linkOrCopy } from './durable-copy.ts';
import { fsyncDirs, removeEmptyDir, removeFile } from './durable-fs.ts';
import { remakeEmptiedDirs, removeEmptiedDirs } from './emptied-dirs.ts';
import { describeState, observe, sameState } from './entry-state.ts';
import {
  backupPath,
  fileIdOf,
  folderOf,
  oldOf,
  removeBackups,
  restoringPath,
  sameFileId,
  TEMP_PREFIX,
  saveJournal,
  stagedPath,
  targetPath,
  transactionDir,
  type FileId,
  type JournalOp,
  type JournalRecord,
} from './journal-file.ts';
import { forEachLimit } from '../../fs/index.ts';
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
 * Why an op's folder can no longer be written or read safely, or null: it is gone, it or a folder
 * above it is a symlink now, or another folder has its place (its device and inode are not the
 * ones the commit recorded). `checked` remembers folders already found sound in this phase.
 */
export function folderProblem(record: JournalRecord, op: JournalOp, checked?: Set<string>): string | null {
  if (checked?.has(op.dirRel)) return null;
  const folder = folderOf(record, op);
  const known = record.folderIds?.[op.dirRel];
  if (!folderStillReal(folder) || (known && !sameFileId(fileIdOf(folder), known))) {
    return 'its folder was moved, removed or replaced (by a symlink or another folder) meanwhile, so Bindery did not write or read there.';
  }
  checked?.add(op.dirRel);
  return null;
}

/** Puts the staged version of an op in place: one atomic rename (or unlink for a delete). */
export async function replaceOne(record: JournalRecord, op: JournalOp): Promise<void> {
  if (op.kind === 'write') fs.renameSync(diskPath(stagedPath(record, op)), diskPath(targetPath(record, op)));
  else if (oldOf(op).kind !== 'absent') await removeFile(targetPath(record, op));
}

/**
 * Puts an op's old version back atomically (the target holds the new one) and returns the identity
 * of the file put there (null when the old version is no file at all), for the check after it.
 */
export async function restoreOld(ctx: SettleContext, op: JournalOp): Promise<FileId | null> {
  const { record } = ctx;
  const target = targetPath(record, op);
  const old = oldOf(op);
  if (old.kind === 'absent') {
    await removeFile(target);
    return null;
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
  const made = fileIdOf(temp);
  fs.renameSync(diskPath(temp), diskPath(target));
  return made;
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
 * Rolls a transaction back to the versions before it: targets holding what it wrote get the old
 * version back, anything else someone changed meanwhile is left alone (and reported); then temp files
 * and created directories go, and the journal records `finalState`. A rolled-back commit restores
 * only the files it wrote itself (by identity); an undo, any holding what the commit left (by content).
 * Every path is looked at only through its recorded folder, and each is checked after; the paths
 * it could not put back are returned, and their backups kept. Skips looking at targets when
 * nothing can have been replaced yet (state `prepared`).
 */
export async function rollBack(ctx: SettleContext, finalState: 'rolled_back' | 'undone', inspectTargets: boolean): Promise<DriftedPath[]> {
  const { record } = ctx;
  const untouched: DriftedPath[] = [];
  if (inspectTargets) {
    const gone = (record.emptiedDirs ?? []).filter(({ rel }) => fileIdOf(absoluteIn(record.targetRoot, rel)) === null);
    await remakeEmptiedDirs(record);
    // The folders the commit removed are made anew: new identities, which the checks below expect.
    for (const { rel } of gone) {
      const id = fileIdOf(absoluteIn(record.targetRoot, rel));
      if (id && record.folderIds) record.folderIds[rel] = id;
    }
    await forEachLimit(record.ops, ctx.concurrency, async (op) => {
      const problem = await putBack(ctx, op, finalState === 'undone');
      if (problem) untouched.push({ relPath: op.relPath, reason: problem });
    });
  } else {
    untouched.push(...stagedAway(record));
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

/**
 * Brings one target back to its version before the transaction, or says why it did not: never
 * through a folder that is not the recorded one, and never without checking the result.
 */
async function putBack(ctx: SettleContext, op: JournalOp, byContent: boolean): Promise<string | null> {
  const { record } = ctx;
  const target = targetPath(record, op);
  const away = folderProblem(record, op);
  if (away) return `${away} Its version from before the commit was not put back, and a ${TEMP_PREFIX} file of this commit may remain in the folder wherever it went.`;
  const id = fileIdOf(target);
  const current = (await observe(target)).state;
  // What was read came through the folder only if it is still the recorded one.
  const movedWhileRead = folderProblem(record, op);
  if (movedWhileRead) return `${movedWhileRead} Its version from before the commit was not put back.`;
  if (sameState(current, oldOf(op))) return null;
  if (!op.next || !sameState(current, op.next)) {
    return `it now holds ${describeState(current)}, which is neither the version before the commit nor the committed one, so it was left as it is.`;
  }
  // A rolled-back commit takes back only the files it wrote itself, not equal ones another process wrote since.
  if (!byContent && op.staged && !sameFileId(id, op.staged)) {
    return 'it holds the committed version, but as a file someone else wrote meanwhile, so it was left as it is.';
  }
  const made = await restoreOld(ctx, op);
  await reach(ctx, 'restored', op.relPath);
  const now = fileIdOf(target);
  if (folderProblem(record, op) || (made ? !sameFileId(now, made) : now !== null)) {
    return 'its version from before the commit was put back, but the folder or file changed right after, so it could not be verified; look at it.';
  }
  return null;
}

/**
 * Before the commit point no target was touched, but staged files sit beside their targets: one
 * in a folder moved away or replaced (by a symlink, another folder) meanwhile went with it, where
 * removing temp files cannot reach. Each such op is reported, so a rollback never claims every
 * file is as before over it. Staged means written by this process (`next` known) or, for a crashed
 * commit, possible wherever something other than the recorded folder now has its place.
 */
function stagedAway(record: JournalRecord): DriftedPath[] {
  return record.ops.flatMap((op) => {
    if (op.kind !== 'write') return [];
    const problem = folderProblem(record, op);
    if (!problem || (!op.next && !op.staged && fileIdOf(folderOf(record, op)) === null)) return [];
    return [{ relPath: op.relPath, reason: `${problem} The file itself was not changed, but a ${TEMP_PREFIX} file of this commit may remain in the folder wherever it went.` }];
  });
}

/** True when the op's folder is one the commit removes once emptied (or inside one), and is gone. */
export function removedByCommit(record: JournalRecord, op: JournalOp): boolean {
  const inEmptied = (record.emptiedDirs ?? []).some(({ rel }) => op.dirRel === rel || op.dirRel.startsWith(`${rel}/`));
  return inEmptied && fileIdOf(folderOf(record, op)) === null;
}

/** Where a transaction's backups are kept (what a person needs to put back what a rollback left). */
export function backupsOf(ctx: Pick<SettleContext, 'journalDir' | 'record'>): string {
  return path.join(transactionDir(ctx.journalDir, ctx.record.transactionId), 'backup');
}

/** Ends a commit whose files are all replaced: flush the folders, remove those it emptied, drop temp files, record `committed`. */
export async function finishCommit(ctx: SettleContext, sweepTemps: boolean): Promise<void> {
  await fsyncDirs(touchedDirs(ctx.record));
  await reach(ctx, 'synced');
  if (sweepTemps) await removeTemps(ctx);
  await removeEmptiedDirs(ctx.record);
  // A folder the commit removed has no identity to keep: undo makes it anew.
  for (const { rel } of ctx.record.emptiedDirs ?? []) {
    if (ctx.record.folderIds && fileIdOf(absoluteIn(ctx.record.targetRoot, rel)) === null) delete ctx.record.folderIds[rel];
  }
  // After the renames are durable, never with them: a `committed` that outlived lost renames would end the commit half done.
  await saveJournal(ctx.journalDir, ctx.record, 'committed');
  await reach(ctx, 'finished');
}
