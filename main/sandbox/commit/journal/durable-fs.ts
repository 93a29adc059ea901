/**
 * File operations with the durability the journal relies on: fsync of files and of the
 * directories that name them, removals, and lstat. Paths are the journal's strings, turned into
 * exact bytes where a name is not UTF-8 (see disk-path.ts). Metadata calls (lstat, unlink, rmdir)
 * are synchronous on purpose: they take microseconds on a local disk, while each async call costs
 * a thread-pool round trip that dominates a commit of many small files. What waits for the disk
 * (fsync) stays asynchronous and runs concurrently. Copies are in durable-copy.ts.
 */
import fsSync, { type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { forEachLimit } from '../../fs/index.ts';
import { diskPath } from './disk-path.ts';
import { READ_REGULAR } from './read-regular.ts';

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
  const fd = openForFlush(file);
  if (fd === null) return;
  try {
    await fsyncFd(fd);
  } finally {
    fsSync.closeSync(fd);
  }
}

/**
 * A descriptor that can flush `file`. Windows flushes only handles open for writing, which a file
 * with the read-only attribute refuses: that one is not flushed (null), the rename after it being
 * the best available, as for folders there. Elsewhere a read-only descriptor flushes anything.
 */
function openForFlush(file: string): number | null {
  if (process.platform !== 'win32') return fsSync.openSync(diskPath(file), READ_REGULAR);
  try {
    return fsSync.openSync(diskPath(file), fsSync.constants.O_RDWR);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPERM' || code === 'EACCES') return null;
    throw error;
  }
}

/**
 * Flushes a directory so the names created, renamed or removed in it survive a power loss.
 * Windows cannot open directories for flushing; there the rename itself is the best available.
 */
export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform !== 'win32') await fsyncFile(dir);
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
