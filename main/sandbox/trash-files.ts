/**
 * The files of a trash entry (`<trash>/<id>`): `entry.json` (the record restore and recovery work
 * from), `files` (what was kept), `meta` (a copy's metadata), and flag files that mark a discard or
 * restore under way, so recovery at start can finish what a crash interrupted.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { makeFoldersWritable } from './access.ts';
import { copyTree } from './copy-tree.ts';
import { inRoot } from './fs-path.ts';
import type { FileChange, SandboxRecord, TrashEntry } from './model.ts';
import { listTree } from './walk.ts';

/** Present while a discard moves a sandbox into this entry; gone once its row is written. */
export const DISCARDING_FLAG = 'discarding';
/** Present while a restore puts this entry back. */
export const RESTORING_FLAG = 'restoring';

/**
 * What `entry.json` holds: the row, the sandbox exactly as it was when discarded (its base, strategy
 * and access: restore rebuilds from this, not from a newer provision), and how its files were kept.
 */
export interface TrashRecord {
  entry: TrashEntry;
  sandbox: SandboxRecord;
  /** A worktree's changes (their files are in `files`); null when they could not be determined. */
  changes: FileChange[] | null;
  /** `files` holds the whole working tree but `.git` (a worktree whose changes were unknown). */
  whole?: boolean;
  /** Empty folders of a worktree, which git does not list. */
  emptyDirs?: string[];
  /** The mode of a copied sandbox's folder, given back on restore (a read_only one had no write bit). */
  rootMode?: number | null;
}

/** Writes `entry.json`. */
export async function writeTrashRecord(trashPath: string, record: TrashRecord): Promise<void> {
  await fs.writeFile(path.join(trashPath, 'entry.json'), JSON.stringify(record));
}

/** Reads `entry.json` (entries from before the `entry` field have only `sandbox` and `changes`). */
export async function readTrashRecord(trashPath: string): Promise<TrashRecord> {
  return JSON.parse(await fs.readFile(path.join(trashPath, 'entry.json'), 'utf8')) as TrashRecord;
}

/** True when a path exists (lstat, so dangling symlinks count). */
export async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}

/**
 * Moves a folder; across filesystems it is copied under a temporary name, renamed into place,
 * then removed, so `to` appears only once it is complete.
 */
export async function moveDir(from: string, to: string): Promise<void> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    const partial = `${to}.partial`;
    await makeFoldersWritable(partial);
    await fs.rm(partial, { recursive: true, force: true });
    await copyTree(from, partial);
    await fs.rename(partial, to);
    await makeFoldersWritable(from);
    await fs.rm(from, { recursive: true, force: true });
  }
}

/** Copies one file or symlink (symlinks as symlinks, mtimes kept), creating parent folders. */
export async function copyEntry(from: string | Buffer, to: string | Buffer): Promise<void> {
  const parent = Buffer.isBuffer(to) ? to.subarray(0, to.lastIndexOf(0x2f)) : path.dirname(to);
  await fs.mkdir(parent, { recursive: true });
  const stat = await fs.lstat(from);
  await fs.rm(to, { force: true });
  if (stat.isSymbolicLink()) {
    await fs.symlink(await fs.readlink(from, { encoding: 'buffer' }), to);
    return;
  }
  await fs.copyFile(from, to);
  await fs.chmod(to, stat.mode & 0o7777);
  await fs.utimes(to, stat.atimeMs / 1000, stat.mtimeMs / 1000);
}

/**
 * Copies everything below `from` into the folder `to` (created if needed), names exact, folders
 * with their modes, skipping top-level names in `skipTop` and sockets or pipes.
 */
export async function copyInto(from: string, to: string, skipTop: readonly string[] = []): Promise<void> {
  const entries = await listTree(from, { skip: (rel) => skipTop.includes(rel) });
  await fs.mkdir(to, { recursive: true });
  const dirs: string[] = [];
  for (const entry of entries) {
    if (entry.kind === 'dir') {
      await fs.mkdir(inRoot(to, entry.rel), { recursive: true });
      dirs.push(entry.rel);
    } else if (entry.kind !== 'other') await copyEntry(inRoot(from, entry.rel), inRoot(to, entry.rel));
  }
  // Modes last and deepest first, so a folder without a write bit was still writable while filled.
  for (const rel of dirs.sort((a, b) => b.length - a.length)) {
    const stat = await fs.stat(inRoot(from, rel));
    await fs.chmod(inRoot(to, rel), stat.mode & 0o7777);
  }
}

/** The folders below `root` (but not in `skipTop`) that hold nothing. */
export async function emptyFolders(root: string, skipTop: readonly string[] = []): Promise<string[]> {
  const entries = await listTree(root, { skip: (rel) => skipTop.includes(rel) });
  const parents = new Set(entries.map((entry) => entry.rel.slice(0, Math.max(0, entry.rel.lastIndexOf('/')))));
  return entries.filter((entry) => entry.kind === 'dir' && !parents.has(entry.rel)).map((entry) => entry.rel);
}
