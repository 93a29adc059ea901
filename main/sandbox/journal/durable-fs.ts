/**
 * File operations with the durability the journal relies on: fsync of files and of the
 * directories that name them, atomic JSON replacement, hashing copies.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { forEachLimit } from './pool.ts';

const CHUNK = 1 << 20;
const DIR_SYNC_CONCURRENCY = 16;

/** `lstat`, or null when nothing is there (a missing parent counts as nothing). */
export async function lstatOrNull(file: string): Promise<Stats | null> {
  try {
    return await fs.lstat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/**
 * Flushes a directory so the names created, renamed or removed in it survive a power loss.
 * Windows cannot open directories for flushing; there the rename itself is the best available.
 */
export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replaces `file` with JSON atomically and durably (temp file, fsync, rename, fsync of the folder). */
export async function writeJsonDurable(file: string, value: unknown): Promise<void> {
  const temp = `${file}.next`;
  const handle = await fs.open(temp, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(value));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, file);
  await fsyncDir(path.dirname(file));
}

/** The sha256 (hex) of a file's bytes. */
export async function hashFile(file: string): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}

/**
 * Copies `source` to a new file `dest` (which must not exist), sets `mode`, fsyncs it, and returns
 * the sha256 of exactly the bytes written, so the journal describes the copy even if the source
 * changes meanwhile.
 */
export async function copyDurable(source: string, dest: string, mode: number): Promise<string> {
  const input = await fs.open(source, 'r');
  try {
    const output = await fs.open(dest, 'wx', 0o600);
    try {
      const hash = createHash('sha256');
      const buffer = Buffer.allocUnsafe(CHUNK);
      for (;;) {
        const { bytesRead } = await input.read(buffer, 0, CHUNK, null);
        if (bytesRead === 0) break;
        const chunk = buffer.subarray(0, bytesRead);
        hash.update(chunk);
        await output.write(chunk);
      }
      await output.chmod(mode);
      await output.sync();
      return hash.digest('hex');
    } finally {
      await output.close();
    }
  } finally {
    await input.close();
  }
}

/** Removes a file if it is there. */
export async function removeFile(file: string): Promise<void> {
  try {
    await fs.unlink(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
}

/** Removes a directory if it is there and empty; a non-empty one holds someone's files and stays. */
export async function removeEmptyDir(dir: string): Promise<void> {
  try {
    await fs.rmdir(dir);
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
    await fs.link(from, to);
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
