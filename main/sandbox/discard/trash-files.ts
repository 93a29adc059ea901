/**
 * The files of a trash entry (`<trash>/<id>`): `entry.json` (the record restore and recovery work
 * from), `files` (what was kept), `meta` (a copy's metadata), and flag files that mark a discard or
 * restore under way, so recovery at start can finish what a crash interrupted. A flag names the
 * process that set it, so recovery elsewhere leaves alone what a live process is still doing.
 */
import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { makeFoldersWritable } from '../provision/index.ts';
import { copyTree } from '../provision/index.ts';
import { inRoot } from '../fs/index.ts';
import type { ChangedFile, SandboxInfo, TrashItem } from '../../../shared/dto.ts';
import { listTree } from '../fs/index.ts';

/** Present while a discard moves a sandbox into this entry; gone once its row is written. */
export const DISCARDING_FLAG = 'discarding';
/** Set with `discarding` once the sandbox's files are complete here, just before the sandbox is removed. */
export const REMOVING_FLAG = 'removing';
/** Present while a restore puts this entry back. */
export const RESTORING_FLAG = 'restoring';
/** A worktree's snapshot objects (see git-objects.ts), packed: restore puts them back into the repository. */
export const SNAPSHOT_PACK = 'snapshot.pack';

/** What a flag file holds: the process that set it (its start time tells a reused pid apart, where the system says). */
interface FlagOwner {
  pid: number;
  token: string;
  started: string | null;
}

const self: FlagOwner = { pid: process.pid, token: randomBytes(8).toString('hex'), started: startTimeOf(process.pid) };

/** Sets a flag naming this process; fails (rather than making it again) when the entry folder is gone. */
export async function setFlag(trashPath: string, flag: string): Promise<void> {
  await fs.writeFile(path.join(trashPath, flag), JSON.stringify(self));
}

/** The owner of a flag, or null when it names none (set before flags did). */
export async function flagOwner(trashPath: string, flag: string): Promise<FlagOwner | null> {
  try {
    const owner = JSON.parse(await fs.readFile(path.join(trashPath, flag), 'utf8')) as FlagOwner;
    return typeof owner?.pid === 'number' ? owner : null;
  } catch {
    return null;
  }
}

/**
 * True when one of the entry's flags was set by another process that is still running: its
 * discard or restore is under way, not interrupted. A pid reused since only makes recovery wait.
 */
export async function heldByLiveProcess(trashPath: string): Promise<boolean> {
  for (const flag of [DISCARDING_FLAG, REMOVING_FLAG, RESTORING_FLAG]) {
    const owner = await flagOwner(trashPath, flag);
    if (!owner || owner.token === self.token || owner.pid === process.pid || !isProcessAlive(owner.pid)) continue;
    const started = startTimeOf(owner.pid);
    if (owner.started === null || started === null || started === owner.started) return true;
  }
  return false;
}

/** True when a process with this pid runs (one of another user's too). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's start time in clock ticks since boot (Linux), or null where the system does not tell. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = fsSync.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the state, field 3; the start time is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * What `entry.json` holds: the row, the sandbox exactly as it was when discarded (its base, strategy
 * and access: restore rebuilds from this, not from a newer provision), and how its files were kept.
 */
export interface TrashRecord {
  entry: TrashItem;
  sandbox: SandboxInfo;
  /** A worktree's changes (their files are in `files`); null when they could not be determined. */
  changes: ChangedFile[] | null;
  /** `files` holds the whole working tree but `.git` (a worktree whose changes were unknown). */
  whole?: boolean;
  /** Empty folders of a worktree, which git does not list. */
  emptyDirs?: string[];
  /** The mode of a copied sandbox's folder, given back on restore (a read_only one had no write bit). */
  rootMode?: number | null;
  /** Ignored files a tool made in a worktree (see ignored.ts), kept in `files` beside the changes. */
  ignored?: string[];
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

/** How moveDir works across filesystems. */
export interface MoveDirOptions {
  /** Where the source is renamed before the copy takes `to` (it stays at `from` otherwise). */
  aside?: string;
  /** Leave the source for the caller to remove (a discard removes it only once its `removing` flag is set). */
  keepSource?: boolean;
  /** Called with the complete copy before the source is set aside, so a caller can record what only this move made. */
  copied?: (copy: string) => Promise<void>;
}

/**
 * Moves a folder to `to`, whose parent must exist. Across filesystems it is copied into a fresh
 * folder of its own beside `to` (nothing there before is touched), the source is renamed to
 * `aside` (when given), the copy renamed into place, and the source removed: `to` appears only
 * once complete, and while the source is still at `from`, a folder at `to` is not from this move.
 * Returns true when the source was left in place (copied, with `keepSource`).
 */
export async function moveDir(from: string, to: string, options: MoveDirOptions = {}): Promise<boolean> {
  const aside = options.aside ?? from;
  try {
    await fs.rename(from, to);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  if (!(await fs.lstat(from)).isDirectory()) throw new Error(`${from} is not a folder (a symlink?), so it was not moved to ${to}.`);
  const temp = await fs.mkdtemp(`${to}.partial-`);
  const copy = path.join(temp, 'copy');
  try {
    await copyTree(from, copy);
    await options.copied?.(copy);
    if (aside !== from) await fs.rename(from, aside);
    await fs.rename(copy, to).catch(async (error: unknown) => {
      if (aside !== from) await fs.rename(aside, from);
      throw error;
    });
  } catch (error) {
    await removeTree(temp);
    throw error;
  }
  await fs.rmdir(temp);
  if (options.keepSource) return true;
  await removeTree(aside);
  return false;
}

/** Removes a folder and everything below it, read-only folders too. */
export async function removeTree(dir: string): Promise<void> {
  await makeFoldersWritable(dir);
  await fs.rm(dir, { recursive: true, force: true });
}

/**
 * Copies the file or symlink `rel` from below `fromRoot` to below `toRoot` (symlinks as symlinks,
 * mtimes kept). Missing parent folders are made one at a time, so a `toRoot` that vanished fails
 * the copy instead of being made again.
 */
export async function copyEntry(fromRoot: string, toRoot: string, rel: string): Promise<void> {
  const from = inRoot(fromRoot, rel);
  const to = inRoot(toRoot, rel);
  await makeParents(toRoot, rel);
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

async function makeParents(root: string, rel: string): Promise<void> {
  const parts = rel.split('/').slice(0, -1);
  if (parts.length === 0) return;
  if (await fs.lstat(inRoot(root, parts.join('/'))).then(() => true, () => false)) return;
  for (let depth = 1; depth <= parts.length; depth++) {
    await fs.mkdir(inRoot(root, parts.slice(0, depth).join('/'))).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}

/**
 * Copies everything below `from` into the existing folder `to`, names exact, folders with their
 * modes, skipping top-level names in `skipTop` and sockets or pipes.
 */
export async function copyInto(from: string, to: string, skipTop: readonly string[] = []): Promise<void> {
  const entries = await listTree(from, { skip: (rel) => skipTop.includes(rel) });
  const dirs: string[] = [];
  for (const entry of entries) {
    if (entry.kind === 'dir') {
      // Not recursive: listTree gives folders before what they hold, and a `to` that vanished is not made again.
      await fs.mkdir(inRoot(to, entry.rel)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      dirs.push(entry.rel);
    } else if (entry.kind !== 'other') await copyEntry(from, to, entry.rel);
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
