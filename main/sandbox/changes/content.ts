/**
 * What a change looks like inside: binary or text (git's rule: a NUL byte in the first 8000
 * bytes), line counts (shared/diff/line-match.ts, bounded by the files' sizes), and the content identities (sha256,
 * git blob ids) that drift checks compare.
 */
import { createHash } from 'node:crypto';
import fsSync, { createReadStream } from 'node:fs';
import { promisify } from 'node:util';
import { countLineChanges } from '../../../shared/diff/line-match.ts';
import type { EntryType } from '../../../shared/dto.ts';
import { specialKindOf, type SpecialKind } from '../fs/index.ts';

/** Files bigger than this get no line counts or text diff (the UI offers "show anyway"). */
export const TEXT_LIMIT = 2 * 1024 * 1024;

const BINARY_PROBE = 8000;

/** True when the bytes look binary. */
export function isBinary(data: Buffer): boolean {
  return data.subarray(0, BINARY_PROBE).includes(0);
}

/**
 * Lines added and removed between two texts, as `git diff --numstat` counts them. Whole lines the
 * texts share at the start and at the end are left out first: a small edit to a big file costs
 * little.
 */
export function lineCounts(before: string, after: string): { additions: number; deletions: number } {
  const { removed, added } = trimShared(before, after);
  // Lines only inserted or only removed need no diff: they are all of it.
  if (removed === '' || added === '') return { additions: countLines(added), deletions: countLines(removed) };
  return countLineChanges(removed, added);
}

/** The counts when the texts differ only by lines inserted or removed in one place (no diff needed), else null. */
export function insertedOrRemoved(before: string, after: string): { additions: number; deletions: number } | null {
  const { removed, added } = trimShared(before, after);
  return removed === '' || added === '' ? { additions: countLines(added), deletions: countLines(removed) } : null;
}

/** What is left of both texts once the whole lines they share at the start and at the end are taken off. */
function trimShared(before: string, after: string): { removed: string; added: string } {
  const head = sharedHead(before, after);
  const tail = sharedTail(before.slice(head), after.slice(head));
  return { removed: before.slice(head, before.length - tail), added: after.slice(head, after.length - tail) };
}

const NEWLINE = 10;

/** How many lines a text holds, as git counts them: one per newline, plus an unterminated last one. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return text.charCodeAt(text.length - 1) === NEWLINE ? lines : lines + 1;
}

/** The length of the whole lines (each ending in a newline) both texts start with. */
function sharedHead(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let same = 0;
  while (same < max && a.charCodeAt(same) === b.charCodeAt(same)) same++;
  return same === 0 ? 0 : a.lastIndexOf('\n', same - 1) + 1;
}

/** The length of the whole lines both texts end with (the last one may lack its newline). */
function sharedTail(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let same = 0;
  while (same < max && a.charCodeAt(a.length - 1 - same) === b.charCodeAt(b.length - 1 - same)) same++;
  const lineStart = (text: string, at: number): boolean => at === 0 || text.charCodeAt(at - 1) === NEWLINE;
  if (lineStart(a, a.length - same) && lineStart(b, b.length - same)) return same;
  // The shared part starts inside a line: it counts from the next line on.
  const newline = a.indexOf('\n', a.length - same);
  return newline === -1 ? 0 : a.length - newline - 1;
}

/** The git object id of a blob with this content (sha1, or sha256 when `hexLength` is 64). */
export function gitBlobId(data: Buffer, hexLength = 40): string {
  const hash = createHash(hexLength === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${data.length}\0`);
  hash.update(data);
  return hash.digest('hex');
}

/** The sha256 of some bytes. */
export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * What is at a path on disk: its type, mode and identity, and its bytes when they are small enough
 * to diff. `other` is a folder, or a special file (FIFO, socket, device: `special` says which),
 * whose content is never read.
 */
export type DiskEntry =
  | { type: null }
  | { type: 'other'; special?: SpecialKind }
  | {
      type: EntryType;
      mode: number;
      size: number;
      ino: number;
      mtimeMs: number;
      ctimeMs: number;
      /** The content (a symlink's target bytes); null for files over TEXT_LIMIT. */
      data: Buffer | null;
      /** sha256 of the content. */
      readonly sha256: string;
      /** git blob id (sha1) of the content. */
      readonly blobId: string;
      /** A NUL byte in the first 8000 bytes. */
      binary: boolean;
    };

/** Files up to this size are read synchronously: a handful of syscalls cost less than thread-pool round trips. */
const SYNC_READ_LIMIT = 256 * 1024;

/**
 * How a file is opened for reading: never through a link, and without waiting for a writer should
 * a FIFO have taken the file's place since its lstat (opened plainly, a FIFO blocks forever).
 */
const READ_FLAGS = fsSync.constants.O_RDONLY | (fsSync.constants.O_NONBLOCK ?? 0) | (fsSync.constants.O_NOFOLLOW ?? 0);

/** How often a path that changes between its lstat and its open is looked at again before it counts as unreadable. */
const LOOKS = 3;

const readFd = promisify(fsSync.readFile) as (fd: number) => Promise<Buffer>;

/**
 * The stat of a file or symlink at `at`, or the entry it already is: nothing there, or something
 * else (a special file's kind from its lstat: it is never opened).
 */
function lookAt(at: string | Buffer): fsSync.Stats | DiskEntry {
  let stat;
  try {
    stat = fsSync.lstatSync(at);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { type: null };
    throw error;
  }
  if (stat.isFile() || stat.isSymbolicLink()) return stat;
  return stat.isDirectory() ? { type: 'other' } : { type: 'other', special: specialKindOf(stat) };
}

/**
 * A descriptor of the regular file `seen` (its lstat) describes, with its stat, or null when
 * something else is at `at` by now: the lstat and the open are two steps, and a FIFO or a link
 * swapped in between must not be read.
 */
function openRegular(at: string | Buffer, seen: fsSync.Stats): { fd: number; stat: fsSync.Stats } | null {
  let fd: number;
  try {
    fd = fsSync.openSync(at, READ_FLAGS);
  } catch (error) {
    // A link (ELOOP), a socket (ENXIO) or nothing at all there now.
    if (['ELOOP', 'ENXIO', 'ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
  const stat = fsSync.fstatSync(fd);
  if (stat.isFile() && stat.ino === seen.ino && stat.dev === seen.dev) return { fd, stat };
  fsSync.closeSync(fd);
  return null;
}

/** Looks at `at` until what its lstat says is what is read, then reads it with `read`. */
function settled<T>(at: string | Buffer, read: (stat: fsSync.Stats, opened: { fd: number; stat: fsSync.Stats } | null) => T): T | DiskEntry {
  for (let look = 0; look < LOOKS; look++) {
    const seen = lookAt(at);
    if (!(seen instanceof fsSync.Stats)) return seen;
    if (seen.isSymbolicLink()) {
      try {
        return read(seen, null);
      } catch (error) {
        // No longer a link (EINVAL) or gone: look again.
        if (!['EINVAL', 'ENOENT'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
        continue;
      }
    }
    const opened = openRegular(at, seen);
    if (opened) return read(opened.stat, opened);
  }
  throw Object.assign(new Error(`${String(at)} kept changing while it was read`), { code: 'EAGAIN' });
}

/** The entry of a symlink, or of a file of at most `limit` bytes (read through `opened`), synchronously; null for a bigger file. */
function readSmall(at: string | Buffer, stat: fsSync.Stats, opened: { fd: number } | null, limit: number): DiskEntry | null {
  if (!opened) return heldEntry('symlink', baseOf(stat), fsSync.readlinkSync(at, { encoding: 'buffer' }));
  return stat.size <= limit ? heldEntry('file', baseOf(stat), fsSync.readFileSync(opened.fd)) : null;
}

/** Reads a file or symlink without following it, synchronously; null for a file over `limit` bytes (`readEntry` takes those). */
export function readSmallEntry(at: string | Buffer, limit = SYNC_READ_LIMIT): DiskEntry | null {
  return settled(at, (stat, opened) => {
    try {
      return readSmall(at, stat, opened, limit);
    } finally {
      if (opened) fsSync.closeSync(opened.fd);
    }
  });
}

/** Reads a file or symlink without following it; large files are hashed as a stream, never held whole. */
export async function readEntry(at: string | Buffer): Promise<DiskEntry> {
  // A link is read synchronously, so settled() can look again should it be gone by then.
  return await settled<DiskEntry | Promise<DiskEntry>>(at, (stat, opened) => (opened ? readOpened(at, stat, opened.fd) : readSmall(at, stat, null, SYNC_READ_LIMIT)!));
}

/** The entry of the regular file open as `fd` (closed once read). */
async function readOpened(at: string | Buffer, stat: fsSync.Stats, fd: number): Promise<DiskEntry> {
  let streamed = false;
  try {
    const small = readSmall(at, stat, { fd }, SYNC_READ_LIMIT);
    if (small) return small;
    if (stat.size <= TEXT_LIMIT) return heldEntry('file', baseOf(stat), await readFd(fd));
    streamed = true;
    return await hashStream(fd, stat);
  } finally {
    if (!streamed) fsSync.closeSync(fd);
  }
}

/**
 * The sha256 of the regular file at `at`, or null when something else is there (a FIFO is never
 * waited on) or it cannot be read.
 */
export function sha256RegularSync(at: string | Buffer): string | null {
  let fd: number;
  try {
    fd = fsSync.openSync(at, READ_FLAGS);
  } catch {
    return null;
  }
  try {
    return fsSync.fstatSync(fd).isFile() ? sha256(fsSync.readFileSync(fd)) : null;
  } catch {
    return null;
  } finally {
    fsSync.closeSync(fd);
  }
}

/** The entry of a file too big to hold, hashed as it streams from `fd` (which the stream closes). */
async function hashStream(fd: number, stat: fsSync.Stats): Promise<DiskEntry> {
  const plain = createHash('sha256');
  const blob = createHash('sha1').update(`blob ${stat.size}\0`);
  let size = 0;
  let binary = false;
  for await (const chunk of createReadStream('', { fd })) {
    if (size < BINARY_PROBE) binary ||= isBinary((chunk as Buffer).subarray(0, BINARY_PROBE - size));
    plain.update(chunk as Buffer);
    blob.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { type: 'file', ...baseOf(stat), size, data: null, sha256: plain.digest('hex'), blobId: blob.digest('hex'), binary };
}

function baseOf(stat: fsSync.Stats): { mode: number; size: number; ino: number; mtimeMs: number; ctimeMs: number } {
  return { mode: stat.mode & 0o7777, size: stat.size, ino: stat.ino, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
}

/**
 * An entry whose bytes are held: its hashes are taken when first asked for (most changes need
 * only one of the two, and many neither), then kept.
 */
function heldEntry(type: EntryType, base: { mode: number; ino: number; mtimeMs: number; ctimeMs: number }, data: Buffer): DiskEntry {
  let plain: string | undefined;
  let blob: string | undefined;
  return {
    type,
    ...base,
    size: data.length,
    data,
    binary: type === 'file' && isBinary(data),
    get sha256() {
      return (plain ??= sha256(data));
    },
    get blobId() {
      return (blob ??= gitBlobId(data));
    },
  };
}

/** A file or symlink that is there but cannot be read: why, and what its stat says (null when even that failed). */
export interface UnreadableEntry {
  unreadable: string;
  stat: { type: EntryType; mode: number; size: number } | null;
}

/** Errors that mean "this path cannot be read", as opposed to a failure of the whole look. */
const UNREADABLE: Record<string, string> = { EACCES: 'permission denied', EPERM: 'operation not permitted', EIO: 'input/output error', EAGAIN: 'it kept changing while it was read' };

/** Reads like readEntry; a path that is there but cannot be read gives why instead of throwing. */
export async function readEntryOrWhy(at: string | Buffer): Promise<DiskEntry | UnreadableEntry> {
  try {
    return await readEntry(at);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!(code in UNREADABLE)) throw error;
    let stat: UnreadableEntry['stat'] = null;
    try {
      const seen = fsSync.lstatSync(at);
      if (seen.isFile() || seen.isSymbolicLink()) stat = { type: seen.isFile() ? 'file' : 'symlink', mode: seen.mode & 0o7777, size: seen.size };
    } catch {
      // Not even its stat: a folder above it cannot be searched.
    }
    return { unreadable: `${UNREADABLE[code]} (${code})`, stat };
  }
}

/** True for what readEntryOrWhy gives when the path cannot be read. */
export function isUnreadable(entry: DiskEntry | UnreadableEntry): entry is UnreadableEntry {
  return 'unreadable' in entry;
}

/** True when two entries are of the same type with the same content (modes aside). */
export function sameContent(a: DiskEntry, b: DiskEntry): boolean {
  if (a.type !== b.type) return false;
  if (a.type === null || a.type === 'other' || b.type === null || b.type === 'other') return true;
  return a.sha256 === b.sha256;
}
