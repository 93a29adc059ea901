/**
 * File operations with the durability the journal relies on: fsync of files and of the
 * directories that name them, hashing copies, links. Paths are the journal's strings, turned into
 * exact bytes where a name is not UTF-8 (see disk-path.ts). Metadata calls (lstat, link, rename, unlink)
 * and small reads are synchronous on purpose: they take microseconds on a local disk, while each
 * async call costs a thread-pool round trip that dominates a commit of many small files. What
 * waits for the disk (fsync) and large files stay asynchronous and run concurrently.
 */
import { createHash } from 'node:crypto';
import fsSync, { type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { BinderyError } from '../../../shared/errors.ts';
import { diskPath } from './disk-path.ts';
import { forEachLimit } from './pool.ts';

const CHUNK = 1 << 20;
/** Read-only, and without blocking on a FIFO that replaced a file since it was looked at. */
const READ_REGULAR = fsSync.constants.O_RDONLY | (fsSync.constants.O_NONBLOCK ?? 0);
const fsyncFd = promisify(fsSync.fsync);
const DIR_SYNC_CONCURRENCY = 16;

/** `lstat`, or null when nothing is there (a missing parent counts as nothing). */
export function lstatOrNull(file: string): Stats | null {
  try {
    return fsSync.lstatSync(diskPath(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/**
 * Flushes a file's data and metadata to disk. Opening and closing are synchronous (no metadata
 * changes, so they never wait for the disk): only the flush goes to the thread pool.
 */
export async function fsyncFile(file: string): Promise<void> {
  const fd = fsSync.openSync(diskPath(file), READ_REGULAR);
  try {
    await fsyncFd(fd);
  } finally {
    fsSync.closeSync(fd);
  }
}

/**
 * Flushes a directory so the names created, renamed or removed in it survive a power loss.
 * Windows cannot open directories for flushing; there the rename itself is the best available.
 */
export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform !== 'win32') await fsyncFile(dir);
}

/** Files up to this size are hashed from one synchronous read; larger ones in async chunks. */
const SMALL_HASH = 2 * 1024 * 1024;
const readFd = promisify(fsSync.read);

/** Opens a file for reading (see READ_REGULAR) and refuses anything that is not a regular file. */
function openRegularSync(file: string): { fd: number; stat: Stats } {
  const fd = fsSync.openSync(diskPath(file), READ_REGULAR);
  const stat = fsSync.fstatSync(fd);
  if (!stat.isFile()) {
    fsSync.closeSync(fd);
    throw new BinderyError('io_error', `${file} is no longer a regular file (it changed while Bindery was reading it): retry.`);
  }
  return { fd, stat };
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function hashFd(fd: number, size: number): Promise<string> {
  if (size <= SMALL_HASH) return sha256(fsSync.readFileSync(fd));
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(CHUNK);
  for (let position = 0; ; ) {
    const { bytesRead } = await readFd(fd, buffer, 0, CHUNK, position);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return hash.digest('hex');
}

/** The sha256 (hex) of a file's bytes. */
export async function hashFile(file: string): Promise<string> {
  const { fd, stat } = openRegularSync(file);
  try {
    return await hashFd(fd, stat.size);
  } finally {
    fsSync.closeSync(fd);
  }
}

/**
 * Files up to this size are copied from memory with synchronous calls, which cost far less than
 * thread-pool round trips. Larger ones are copied by the kernel (a clone where the filesystem
 * supports it) in the thread pool.
 */
const SMALL_COPY = 256 * 1024;

/** Whether a series of copies still tries to clone: the first that cannot stops the rest from trying. */
export interface CloneHint {
  tryClone: boolean;
}

/** Errors of a clone that mean this filesystem (or this pair of them) cannot clone. */
const CANNOT_CLONE = new Set(['ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EINVAL', 'ENOSYS', 'ENOTTY']);

/**
 * Copies `source` to a new file `dest` (which must not exist) and returns the sha256 of exactly
 * the bytes in `dest`, so the journal describes the copy even if the source changes meanwhile.
 * The copy is Bindery's alone, so hashing what was written is exact; `vouch`, called once the
 * bytes are copied, may return a hash the caller can prove those bytes have (null when it cannot),
 * which saves hashing them. A copy written from memory gets `mode` at once when its owner can
 * still read it then (settleCopy sets any other); the copy is not flushed: see settleCopy.
 *
 * With `clones.tryClone`, a file is first cloned (XFS, btrfs, APFS: no data is written).
 * Otherwise a small file is written from memory, truncated once created. That marks it as a
 * replaced file, which ext4 and btrfs start writing out when it is closed: the flushes that
 * follow, one per file, then find the data on its way and share journal commits instead of
 * costing one commit each. Larger files are copied by the kernel.
 */
export async function writeCopy(
  source: string,
  dest: string,
  mode: number,
  vouch?: () => string | null,
  clones: CloneHint = { tryClone: false },
): Promise<string> {
  // Opened without blocking first: a FIFO swapped in since the check is refused, never waited on.
  const input = openRegularSync(source);
  let bytes: Buffer | null = null;
  try {
    if (clones.tryClone) {
      try {
        await fs.copyFile(openedPath(input.fd, source), diskPath(dest), fsSync.constants.COPYFILE_EXCL | fsSync.constants.COPYFILE_FICLONE_FORCE);
        return await hashKernelCopy(dest, vouch);
      } catch (error) {
        if (!CANNOT_CLONE.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        clones.tryClone = false;
      }
    }
    if (input.stat.size <= SMALL_COPY) {
      bytes = fsSync.readFileSync(input.fd);
    } else {
      await fs.copyFile(openedPath(input.fd, source), diskPath(dest), fsSync.constants.COPYFILE_EXCL | fsSync.constants.COPYFILE_FICLONE);
      return await hashKernelCopy(dest, vouch);
    }
  } finally {
    fsSync.closeSync(input.fd);
  }
  const output = fsSync.openSync(diskPath(dest), 'wx', 0o600);
  try {
    fsSync.ftruncateSync(output, 0);
    for (let offset = 0; offset < bytes.length; ) offset += fsSync.writeSync(output, bytes, offset);
    // Set now, while no flush is running: a metadata change can wait behind one on a journaling filesystem.
    if (mode & 0o400) fsSync.fchmodSync(output, mode);
  } finally {
    fsSync.closeSync(output);
  }
  return vouch?.() ?? sha256(bytes);
}

/**
 * A path that opens the very file `fd` has open, where the system has one (Linux), so a copy by
 * path reads the regular file that was checked, not whatever took its name since.
 */
function openedPath(fd: number, file: string): string | Buffer {
  return process.platform === 'linux' ? `/proc/self/fd/${fd}` : diskPath(file);
}

/** The hash of a copy the kernel made (see writeCopy). */
async function hashKernelCopy(dest: string, vouch: (() => string | null) | undefined): Promise<string> {
  const vouched = vouch?.() ?? null;
  if (vouched !== null) return vouched;
  const output = openRegularSync(dest);
  try {
    return await hashFd(output.fd, output.stat.size);
  } finally {
    fsSync.closeSync(output.fd);
  }
}

/**
 * Gives a copy made by writeCopy its `mode` and flushes it to disk, through one descriptor: the
 * mode may not let its owner read it (0o200), and a copy is readable until it is set.
 */
export async function settleCopy(file: string, mode: number): Promise<void> {
  const { fd, stat } = openRegularSync(file);
  try {
    if ((stat.mode & 0o7777) !== mode) fsSync.fchmodSync(fd, mode);
    await fsyncFd(fd);
  } finally {
    fsSync.closeSync(fd);
  }
}

/** `writeCopy` with `mode`, flushed to disk. */
export async function copyDurable(source: string, dest: string, mode: number, vouch?: () => string | null): Promise<string> {
  const sha = await writeCopy(source, dest, mode, vouch);
  await settleCopy(dest, mode);
  return sha;
}

/** Removes a file if it is there. */
export async function removeFile(file: string): Promise<void> {
  try {
    fsSync.unlinkSync(diskPath(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
}

/** Removes a directory if it is there and empty; a non-empty one holds someone's files and stays. */
export async function removeEmptyDir(dir: string): Promise<void> {
  try {
    fsSync.rmdirSync(diskPath(dir));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
  }
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

/** Flushes each directory that still exists; a vanished one has nothing left to flush. */
export async function fsyncDirs(dirs: Iterable<string>): Promise<void> {
  await forEachLimit([...dirs], DIR_SYNC_CONCURRENCY, async (dir) => {
    try {
      await fsyncDir(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
  });
}
