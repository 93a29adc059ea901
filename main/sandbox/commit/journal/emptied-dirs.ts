/**
 * Folders a commit removes once its ops have emptied them (the new version has no such folder),
 * and makes again when undo or recovery puts files back into them. A folder is removed only when
 * nothing is left in it, so anything someone put there meanwhile keeps it; it is never followed
 * through a symlink.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UnsafePathError, ValidationError } from '../../../../shared/errors.ts';
import { diskPath } from './disk-path.ts';
import { fsyncDirs } from './durable-fs.ts';
import { permissionBits } from './entry-state.ts';
import type { EmptiedDir, JournalRecord } from './journal-file.ts';
import { absoluteIn, checkRelPath, folderStillReal } from './safe-path.ts';
import type { TransactionOp } from './types.ts';

/**
 * The folders of `removeDirs` that exist as real folders under the root, deepest first, with their
 * modes. Refuses a folder the commit also writes into.
 */
export function checkEmptiedDirs(rootReal: string, removeDirs: readonly string[], ops: readonly TransactionOp[]): EmptiedDir[] {
  const writtenUnder = new Set<string>();
  for (const op of ops) {
    if (op.kind !== 'write') continue;
    for (let dir = parentOf(op.relPath); dir !== ''; dir = parentOf(dir)) writtenUnder.add(dir);
  }
  const found: EmptiedDir[] = [];
  for (const rel of new Set(removeDirs)) {
    const problem = rel === '' ? 'it is the target folder itself' : checkRelPath(rel);
    if (problem) throw new UnsafePathError(`Refused to remove folder ${JSON.stringify(rel)}: ${problem}.`, { relPath: rel });
    if (writtenUnder.has(rel)) {
      throw new ValidationError(`Folder ${JSON.stringify(rel)} is both written into and removed by this commit: give only folders the new version does not have.`, {
        relPath: rel,
      });
    }
    const absolute = absoluteIn(rootReal, rel);
    if (!folderStillReal(absolute)) continue; // gone already, or reached through a symlink: nothing of the root's to remove
    found.push({ rel, mode: permissionBits(fs.lstatSync(diskPath(absolute)).mode) });
  }
  return found.sort((a, b) => depth(b.rel) - depth(a.rel) || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/**
 * Removes each recorded folder that is empty now, deepest first, and flushes their parents. Past
 * the commit point, so nothing here may fail the commit: a folder that cannot be removed (its
 * parent is read-only, it is a mount point, it is in use) stays, as a folder someone refilled does.
 */
export async function removeEmptiedDirs(record: JournalRecord): Promise<void> {
  const parents = new Set<string>();
  for (const { rel } of record.emptiedDirs ?? []) {
    const absolute = absoluteIn(record.targetRoot, rel);
    try {
      if (!folderStillReal(absolute)) continue;
      fs.rmdirSync(diskPath(absolute));
      parents.add(path.dirname(absolute));
    } catch {
      // left in place
    }
  }
  // An unflushed removal that a power loss undoes only brings back an empty folder.
  await fsyncDirs(parents).catch(() => undefined);
}

/**
 * Makes again, shallowest first, each recorded folder that is missing, with its recorded mode, where
 * its parent is still the real folder it was, so files can be put back into it. A folder that
 * cannot be made (a file took its place, no permission) is left out: the files under it are then
 * reported as not restored, and nothing is written elsewhere.
 */
export async function remakeEmptiedDirs(record: JournalRecord): Promise<void> {
  const parents = new Set<string>();
  for (const { rel, mode } of [...(record.emptiedDirs ?? [])].reverse()) {
    const absolute = absoluteIn(record.targetRoot, rel);
    if (somethingAt(absolute) || !folderStillReal(path.dirname(absolute))) continue;
    try {
      fs.mkdirSync(diskPath(absolute), mode);
    } catch {
      continue; // nothing was made; the files under it are reported as not restored
    }
    setModeNoFollow(absolute, mode);
    parents.add(path.dirname(absolute));
  }
  await fsyncDirs(parents);
}

/** Gives the folder exactly `mode` (mkdir applies the umask), through the folder itself, never a symlink put in its place. */
function setModeNoFollow(dir: string, mode: number): void {
  const { O_RDONLY, O_DIRECTORY = 0, O_NOFOLLOW = 0 } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(diskPath(dir), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return; // swapped meanwhile: not ours to change
  }
  try {
    if (permissionBits(fs.fstatSync(fd).mode) !== mode) fs.fchmodSync(fd, mode);
  } finally {
    fs.closeSync(fd);
  }
}

function somethingAt(absolute: string): boolean {
  try {
    return fs.lstatSync(diskPath(absolute), { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw error;
  }
}

function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash === -1 ? '' : rel.slice(0, slash);
}

function depth(rel: string): number {
  return rel.split('/').length;
}
