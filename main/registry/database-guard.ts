/**
 * What openDatabase checks before it writes anything: a database from a newer Bindery (read from
 * the file's header, so not even a `-wal` or `-shm` file is made beside it), an empty file that
 * other data stands beside, a damaged one (copied aside once), and a data directory Bindery cannot
 * write to.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BinderyError } from '../../shared/errors.ts';

/** SQLite's file header starts with this; `user_version` is the big-endian integer at offset 60. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const USER_VERSION_OFFSET = 60;
const HEADER_BYTES = 100;

/**
 * Folders of a data directory that only a used registry leaves (the default layout's). `locks`
 * outlives every journal and sandbox: after a purge it may be all that shows the registry was used.
 */
const DATA_FOLDERS = ['journal', 'sandboxes', 'trash', 'locks', 'git-objects', 'handlers'];

/** The `user_version` in the header of `file`, or null when it does not look like a SQLite database. */
export function headerVersion(file: string): number | null {
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = fs.openSync(file, 'r');
  let read: number;
  try {
    read = fs.readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (read < HEADER_BYTES || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) return null;
  return header.readInt32BE(USER_VERSION_OFFSET);
}

/** The refusal of a database a newer Bindery wrote; nothing beside it was touched. */
export function tooNew(file: string, version: number, latest: number): BinderyError {
  return new BinderyError(
    'database_too_new',
    `The database ${file} was written by a newer Bindery (schema ${version}; this one knows up to ${latest}). ` +
      'It was left untouched: update Bindery, or point --data-dir at another folder.',
    { file, version, supported: latest },
  );
}

/**
 * Refuses an empty (zero-byte) database when a `-wal` journal or the folders of a used data
 * directory stand beside it: SQLite would take it for a new database, and the registry of that
 * work would be lost without a word. An empty file alone (a fresh start cut short) is fine.
 */
export function refuseEmptyBesideData(file: string): void {
  const dir = path.dirname(file);
  const beside = [`${file}-wal`].filter((wal) => sizeOf(wal) > 0).map((wal) => path.basename(wal));
  for (const folder of DATA_FOLDERS) if (hasEntries(path.join(dir, folder))) beside.push(`${folder}/`);
  if (beside.length === 0) return;
  throw new BinderyError(
    'database_corrupt',
    `The database ${file} is empty (0 bytes), but ${beside.join(', ')} beside it show(s) it held a registry: ` +
      `starting afresh would lose track of that work, so Bindery did not start. Restore ${file} from a backup; ` +
      `or, to start with an empty registry on purpose, move ${file} and ${beside.join(', ')} out of ${dir}.`,
    { file, beside },
  );
}

/**
 * Copies a damaged database aside, once: a copy with the same bytes already beside it (from an
 * earlier start) is reused, so every start does not add another full copy. The copy is named by
 * the damaged file's last change and size, so processes starting on it together (the app and a
 * command) make one name, and appears under it only whole (copied to a temporary name, then
 * linked), so a process killed mid-copy leaves no part of a copy that a later start would trust.
 */
export function copyAsideOnce(file: string): { copy: string; fresh: boolean } {
  const earlier = findCopy(file);
  if (earlier) return { copy: earlier, fresh: false };
  const stat = fs.statSync(file);
  const copy = `${file}.corrupt-${stat.mtime.toISOString().replace(/[:.]/g, '-')}-${stat.size}`;
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.copying-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    fs.copyFileSync(file, temp, fs.constants.COPYFILE_EXCL);
    try {
      fs.linkSync(temp, copy);
      return { copy, fresh: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // Another process made it meanwhile; one of other bytes under that name (changed within the same tick) is kept beside it.
    if (sameBytes(file, copy)) return { copy, fresh: false };
    const other = `${copy}-${randomBytes(4).toString('hex')}`;
    fs.linkSync(temp, other);
    return { copy: other, fresh: true };
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function findCopy(file: string): string | undefined {
  const prefix = `${path.basename(file)}.corrupt-`;
  const size = sizeOf(file);
  const names = fs.readdirSync(path.dirname(file)).filter((name) => name.startsWith(prefix)).sort().reverse();
  return names.map((name) => path.join(path.dirname(file), name)).find((copy) => sizeOf(copy) === size && sameBytes(file, copy));
}

/** Compares two files of equal size chunk by chunk, stopping at the first difference. */
function sameBytes(a: string, b: string): boolean {
  const chunk = 1 << 20;
  const [bufA, bufB] = [Buffer.alloc(chunk), Buffer.alloc(chunk)];
  const [fdA, fdB] = [fs.openSync(a, 'r'), fs.openSync(b, 'r')];
  try {
    for (let position = 0; ; position += chunk) {
      const readA = fs.readSync(fdA, bufA, 0, chunk, position);
      const readB = fs.readSync(fdB, bufB, 0, chunk, position);
      if (readA !== readB || !bufA.subarray(0, readA).equals(bufB.subarray(0, readB))) return false;
      if (readA < chunk) return true;
    }
  } finally {
    fs.closeSync(fdA);
    fs.closeSync(fdB);
  }
}

/**
 * The clear reason for a data directory Bindery cannot write to (which folder, and what to do),
 * or null when `error` is not about writing there.
 */
export function unwritableDataDir(dir: string, error: unknown): BinderyError | null {
  const code = (error as { code?: string }).code ?? '';
  const denied = ['EACCES', 'EPERM', 'EROFS'].includes(code) || code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_READONLY');
  if (!denied) return null;
  const blocked = firstUnwritable(dir);
  if (!blocked) return null;
  const where = blocked;
  return new BinderyError(
    'io_error',
    `Bindery cannot write to its data directory ${dir}: ${where} is not writable (${(error as Error).message}). ` +
      `Make it writable for this user (e.g. chmod u+w "${where}"), or choose another data directory with --data-dir or BINDERY_HOME.`,
    { dataDir: dir, path: where },
  );
}

/** The data directory (or the folder it would be made in), or its database files, when this user cannot write there. */
function firstUnwritable(dir: string): string | null {
  const resolved = path.resolve(dir);
  let folder = resolved;
  while (!fs.existsSync(folder) && path.dirname(folder) !== folder) folder = path.dirname(folder);
  const files = folder === resolved ? ['bindery.db', 'bindery.db-wal', 'bindery.db-shm'].map((name) => path.join(folder, name)) : [];
  for (const candidate of [folder, ...files]) {
    if (!fs.existsSync(candidate)) continue;
    try {
      fs.accessSync(candidate, fs.constants.W_OK);
    } catch {
      return candidate;
    }
  }
  return null;
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return -1;
  }
}

function hasEntries(folder: string): boolean {
  try {
    return fs.readdirSync(folder).length > 0;
  } catch {
    return false;
  }
}
