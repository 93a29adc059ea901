/**
 * Folders a commit removes once its ops have emptied them (the new version has no such folder),
 * and makes again when undo or recovery puts files back into them. A folder is removed only when
 * nothing is left in it, so anything someone put there meanwhile keeps it; it is never followed
 * through a symlink.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UnsafePathError, ValidationError } from '../../../shared/errors.ts';
import type { CheckedOp } from './check-ops.ts';
import { diskPath } from './disk-path.ts';
import { fsyncDirs, removeEmptyDir } from './durable-fs.ts';
import { permissionBits } from './entry-state.ts';
import type { EmptiedDir, JournalRecord } from './journal-file.ts';
import { absoluteIn, checkRelPath, folderStillReal } from './safe-path.ts';

/**
 * The folders of `removeDirs` that exist as real folders under the root, deepest first, with their
 * modes. Refuses a folder the commit also writes into.
 */
export function checkEmptiedDirs(rootReal: string, removeDirs: readonly string[], checked: readonly CheckedOp[]): EmptiedDir[] {
  const writtenUnder = new Set<string>();
  for (const { op } of checked) {
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

/** Removes each recorded folder that is empty now, deepest first, and flushes their parents. */
export async function removeEmptiedDirs(record: JournalRecord): Promise<void> {
  const parents = new Set<string>();
  for (const { rel } of record.emptiedDirs ?? []) {
    const absolute = absoluteIn(record.targetRoot, rel);
    if (!folderStillReal(absolute)) continue;
    await removeEmptyDir(absolute);
    parents.add(path.dirname(absolute));
  }
  await fsyncDirs(parents);
}

/**
 * Makes again, shallowest first, each recorded folder that is missing, where its parent is still
 * the real folder it was, so files can be put back into it.
 */
export async function remakeEmptiedDirs(record: JournalRecord): Promise<void> {
  const parents = new Set<string>();
  for (const { rel, mode } of [...(record.emptiedDirs ?? [])].reverse()) {
    const absolute = absoluteIn(record.targetRoot, rel);
    if (somethingAt(absolute) || !folderStillReal(path.dirname(absolute))) continue;
    fs.mkdirSync(diskPath(absolute));
    fs.chmodSync(diskPath(absolute), mode);
    parents.add(path.dirname(absolute));
  }
  await fsyncDirs(parents);
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
