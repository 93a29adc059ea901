/**
 * Copies into the target's folders: a new file holding a source's bytes (cloned where the
 * filesystem can), hashed exactly as written, then given its mode and flushed (settleCopy); and
 * links that stand in for a copy where they can.
 */
import { createHash } from 'node:crypto';
import fsSync, { type BigIntStats, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { finishSparse, hasHoles, writeSkippingZeros } from '../../provision/index.ts';
import { diskPath } from './disk-path.ts';
import { CHUNK, hashFd, hashFile, openRegularSync, READ_REGULAR, readFd, sha256 } from './read-regular.ts';

const fsyncFd = promisify(fsSync.fsync);
const writeFd = promisify(fsSync.write);

/**
 * Files up to this size are copied from memory with synchronous calls, which cost far less than
 * thread-pool round trips. Larger ones are copied by the kernel (a clone where the filesystem
 * supports it) in the thread pool.
 */
const SMALL_COPY = 256 * 1024;

/** Whether a series of copies still tries to clone: the first that cannot stops the rest from trying. */
export interface CloneHint {
  tryClone: boolean;
  /** Called when a clone failed because the filesystem cannot clone at all, not because of one file. */
  cannotClone?: () => void;
}

/** Target folders on a filesystem that cannot clone (see cloneHintFor). */
const unclonable = new Set<string>();

/**
 * The hint for one commit to `targetRoot`: where a clone failed because its filesystem cannot
 * clone, later commits there copy at once instead of failing a clone first, which costs a file
 * created and removed each time; so do sources on another filesystem (the data folder is on
 * another disk). A failure of one file (EINVAL: set apart from copy-on-write, say) stops only its
 * own commit's tries.
 */
export function cloneHintFor(targetRoot: string): CloneHint {
  return { tryClone: !unclonable.has(targetRoot), cannotClone: () => unclonable.add(targetRoot) };
}

/**
 * Errors of a clone that mean it cannot be done here: this filesystem (or pair of them) cannot
 * clone, `/proc` (through which the source is named) is not there, or (EAGAIN, OpenZFS 2.2) the
 * source was written so recently that its blocks are not on disk yet.
 */
const CANNOT_CLONE = new Set(['ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EINVAL', 'ENOSYS', 'ENOTTY', 'ENOENT', 'EAGAIN']);

/**
 * Those of CANNOT_CLONE that hold for every later commit to the folder: its filesystem cannot
 * clone at all, or the sources are on another one (every sandbox lives in Bindery's data folder).
 */
const FILESYSTEM_CANNOT_CLONE = new Set(['ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'ENOTTY', 'EXDEV']);

/**
 * Vouches for a copy's hash: given the source's stat taken through its descriptor once the bytes
 * are copied, returns a hash the caller can prove those bytes have, or null when it cannot.
 */
export type Vouch = (copiedFrom: BigIntStats) => string | null;

/**
 * Copies `source` to a new file `dest` (which must not exist) and returns the sha256 of exactly
 * the bytes in `dest`, so the journal describes the copy even if the source changes meanwhile.
 * The copy is Bindery's alone, so hashing what was written is exact; `vouch` may stand in for that
 * hash (see Vouch). The source is read through one descriptor, opened without blocking and checked
 * to be a regular file, so a FIFO or a swapped folder is never read instead. A copy gets `mode` at
 * once when its owner can still read it with that mode (settleCopy sets any other); it is not
 * flushed: see settleCopy.
 *
 * With `clones.tryClone`, the file is first cloned (XFS, btrfs, APFS: no data is written).
 * Otherwise it is copied through memory: small files in one read, larger ones in chunks up to the
 * size they had when opened, leaving a sparse source's holes as holes. Each copy is truncated once created. That marks it as a replaced
 * file, which ext4 and btrfs start writing out when it is closed: the flushes that follow, one per
 * file, then find the data on its way and share journal commits instead of costing one each.
 */
export async function writeCopy(source: string, dest: string, mode: number, vouch?: Vouch, clones: CloneHint = { tryClone: false }): Promise<string> {
  const input = openRegularSync(source);
  try {
    if (clones.tryClone && (await cloneFrom(input.fd, source, dest, clones))) {
      const vouched = vouch?.(fsSync.fstatSync(input.fd, { bigint: true })) ?? null;
      // A clone has the source's mode; when that is the one asked for and the hash is vouched, it is done.
      if (vouched !== null && (input.stat.mode & 0o7777) === mode) return vouched;
      return await settleClone(dest, mode, vouched);
    }
    if (input.stat.size <= SMALL_COPY) {
      const bytes = fsSync.readFileSync(input.fd);
      const copiedFrom = fsSync.fstatSync(input.fd, { bigint: true });
      const output = createCopy(dest, mode);
      try {
        for (let offset = 0; offset < bytes.length; ) offset += fsSync.writeSync(output, bytes, offset);
      } finally {
        fsSync.closeSync(output);
      }
      return vouch?.(copiedFrom) ?? sha256(bytes);
    }
    return await copyInChunks(input.fd, input.stat, dest, mode, vouch);
  } finally {
    fsSync.closeSync(input.fd);
  }
}

/** Clones the file open as `fd` to `dest`: false (and no more tries in this series) where that cannot be done. */
async function cloneFrom(fd: number, source: string, dest: string, clones: CloneHint): Promise<boolean> {
  try {
    await fs.copyFile(openedPath(fd, source), diskPath(dest), fsSync.constants.COPYFILE_EXCL | fsSync.constants.COPYFILE_FICLONE_FORCE);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!CANNOT_CLONE.has(code)) throw error;
    clones.tryClone = false;
    if (FILESYSTEM_CANNOT_CLONE.has(code)) clones.cannotClone?.();
    return false;
  }
}

/** A new copy, truncated (see writeCopy) and with `mode` when its owner can read it with that mode. */
function createCopy(dest: string, mode: number): number {
  const output = fsSync.openSync(diskPath(dest), 'wx', 0o600);
  try {
    fsSync.ftruncateSync(output, 0);
    if (mode & 0o400) fsSync.fchmodSync(output, mode);
    return output;
  } catch (error) {
    fsSync.closeSync(output);
    throw error;
  }
}

/**
 * Copies a large file through memory, a chunk at a time, up to the size it had when opened or its
 * end if that comes first (a file truncated meanwhile ends the copy; it does not stall it). A
 * source with holes keeps them: its zero blocks are not written (see sparse-copy.ts).
 */
async function copyInChunks(input: number, stat: Stats, dest: string, mode: number, vouch: Vouch | undefined): Promise<string> {
  const { size } = stat;
  const sparse = hasHoles(stat);
  const output = createCopy(dest, mode);
  const hash = vouch ? null : createHash('sha256');
  const buffer = Buffer.allocUnsafe(CHUNK);
  try {
    let position = 0;
    while (position < size) {
      const { bytesRead } = await readFd(input, buffer, 0, Math.min(CHUNK, size - position), position);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      if (sparse) await writeSkippingZeros(output, chunk, position);
      else for (let offset = 0; offset < bytesRead; ) offset += (await writeFd(output, chunk, offset, bytesRead - offset, position + offset)).bytesWritten;
      hash?.update(chunk);
      position += bytesRead;
    }
    if (sparse) finishSparse(output, position);
  } finally {
    fsSync.closeSync(output);
  }
  if (hash) return hash.digest('hex');
  return vouch!(fsSync.fstatSync(input, { bigint: true })) ?? (await hashFile(dest));
}

/**
 * A path that opens the very file `fd` has open where the system has one (Linux), so a clone by
 * path reads the regular file that was checked, not whatever took its name since.
 */
function openedPath(fd: number, file: string): string | Buffer {
  return process.platform === 'linux' ? `/proc/self/fd/${fd}` : diskPath(file);
}

/** Gives a clone `mode` when its owner can read it with that mode, and returns its hash (see writeCopy). */
async function settleClone(dest: string, mode: number, vouched: string | null): Promise<string> {
  const output = openRegularSync(dest);
  try {
    if (mode & 0o400 && (output.stat.mode & 0o7777) !== mode) fsSync.fchmodSync(output.fd, mode);
    return vouched ?? (await hashFd(output.fd, output.stat.size));
  } finally {
    fsSync.closeSync(output.fd);
  }
}

/** Opening a copy to settle it refuses a symlink put in its place. */
const SETTLE_OPEN = READ_REGULAR | (fsSync.constants.O_NOFOLLOW ?? 0);

/** The setuid and setgid bits: writing to a file (or cloning into it) clears them unless root writes. */
const SET_ID_BITS = 0o6000;

/**
 * Gives a copy made by writeCopy its `mode` and flushes it to disk, through one descriptor.
 * writeCopy gave it its mode already where its owner can read it with that mode, and the writing
 * left it alone, so it is set here only when it does not let the owner read (0o200; the copy is
 * readable until then) or holds setuid or setgid bits (which the writing cleared).
 */
export async function settleCopy(file: string, mode: number): Promise<void> {
  if (process.platform === 'win32') return settleCopyOnWindows(file, mode);
  const fd = fsSync.openSync(diskPath(file), SETTLE_OPEN);
  try {
    if (!(mode & 0o400) || mode & SET_ID_BITS) fsSync.fchmodSync(fd, mode);
    await fsyncFd(fd);
  } finally {
    fsSync.closeSync(fd);
  }
}

/**
 * Windows flushes a file only through a handle open for writing, which a read-only file refuses:
 * the copy (Bindery's own, not yet in place) is made writable for its flush and gets its mode after.
 */
async function settleCopyOnWindows(file: string, mode: number): Promise<void> {
  const at = diskPath(file);
  if (!(mode & 0o200)) fsSync.chmodSync(at, mode | 0o200);
  const fd = fsSync.openSync(at, fsSync.constants.O_RDWR);
  try {
    await fsyncFd(fd);
  } finally {
    fsSync.closeSync(fd);
  }
  if (!(mode & 0o200)) fsSync.chmodSync(at, mode);
}

/** `writeCopy` with `mode`, flushed to disk. */
export async function copyDurable(source: string, dest: string, mode: number, vouch?: Vouch): Promise<string> {
  const sha = await writeCopy(source, dest, mode, vouch);
  await settleCopy(dest, mode);
  return sha;
}

/**
 * Makes `to` hold the bytes of `from`: a hard link where the filesystem allows (instant, and the
 * exact same inode), otherwise a durable copy whose hash the caller can check.
 */
export async function linkOrCopy(from: string, to: string, mode: number): Promise<{ linked: true } | { linked: false; sha256: string }> {
  try {
    fsSync.linkSync(diskPath(from), diskPath(to));
    return { linked: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EEXIST') throw error;
  }
  return { linked: false, sha256: await copyDurable(from, to, mode) };
}
