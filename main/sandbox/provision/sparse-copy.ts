/**
 * Copies that keep a sparse file's holes. The kernel's copy call behind Node's copyFile (libuv:
 * copy_file_range or sendfile) writes every zero on ext4, so a 2 GB file made with `truncate`
 * takes 2 GB on disk once copied. Node has no lseek(SEEK_DATA), so a source with holes (fewer
 * blocks than its size) is copied through memory and runs of zero blocks are left unwritten, as
 * `cp --sparse=auto` does; a source without holes is copied as before.
 */
import fsSync, { type BigIntStats, type Stats } from 'node:fs';
import { promisify } from 'node:util';

/** The unit of hole detection: the block size of common filesystems; a hole is whole blocks. */
const HOLE_BLOCK = 4096;
const CHUNK = 1 << 20;
const ZEROS = Buffer.alloc(CHUNK);
const readFd = promisify(fsSync.read);
const writeFd = promisify(fsSync.write);
const OPEN_SOURCE = fsSync.constants.O_RDONLY | (fsSync.constants.O_NOFOLLOW ?? 0) | (fsSync.constants.O_NONBLOCK ?? 0);

function notRegular(file: string | Buffer): Error {
  return Object.assign(new Error(`${file.toString()} is no longer a regular file (it changed while it was being copied): provision again.`), { code: 'EINVAL' });
}

/** Whether a file's allocated blocks hold less than its size, so it has holes a copy should keep. */
export function hasHoles(stat: Stats | BigIntStats): boolean {
  // Windows reports no blocks (undefined, or 0 for a file with data): such a file is copied whole.
  if (process.platform === 'win32' || stat.blocks === undefined) return false;
  return BigInt(stat.blocks) * 512n < BigInt(stat.size);
}

/**
 * Writes `chunk` at `position` of the new file `fd`, leaving blocks that are all zeros unwritten:
 * they read as zeros, and are holes once the file has its full length (see finishSparse).
 */
export async function writeSkippingZeros(fd: number, chunk: Buffer, position: number): Promise<void> {
  if (chunk.length <= CHUNK && chunk.equals(ZEROS.subarray(0, chunk.length))) return;
  let start = -1;
  for (let offset = 0; offset < chunk.length; offset += HOLE_BLOCK) {
    const end = Math.min(offset + HOLE_BLOCK, chunk.length);
    const zero = chunk.subarray(offset, end).equals(ZEROS.subarray(0, end - offset));
    if (!zero && start === -1) start = offset;
    if (zero && start !== -1) {
      await writeAll(fd, chunk.subarray(start, offset), position + start);
      start = -1;
    }
  }
  if (start !== -1) await writeAll(fd, chunk.subarray(start), position + start);
}

async function writeAll(fd: number, bytes: Buffer, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) done += (await writeFd(fd, bytes, done, bytes.length - done, position + done)).bytesWritten;
}

/** Gives a copy written by writeSkippingZeros its length: trailing zero blocks were never written. */
export function finishSparse(fd: number, length: number): void {
  if (fsSync.fstatSync(fd).size !== length) fsSync.ftruncateSync(fd, length);
}

/**
 * Copies the sparse file `from` to the new file `to` (refused if it exists), keeping its holes,
 * its mode and its mtime (as `cp -a` does). For provisioning, where no hash is needed.
 */
export async function copySparseFile(from: string | Buffer, to: string | Buffer, mtimeSeconds: number): Promise<void> {
  // The original is live: what took the file's name since its lstat (a FIFO, a symlink) is refused, never waited on or followed.
  let input: number;
  try {
    input = fsSync.openSync(from, OPEN_SOURCE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw notRegular(from);
    throw error;
  }
  try {
    const stat = fsSync.fstatSync(input);
    if (!stat.isFile()) throw notRegular(from);
    const output = fsSync.openSync(to, 'wx', stat.mode & 0o7777);
    try {
      const buffer = Buffer.allocUnsafe(CHUNK);
      let position = 0;
      for (;;) {
        const { bytesRead } = await readFd(input, buffer, 0, CHUNK, position);
        if (bytesRead === 0) break;
        await writeSkippingZeros(output, buffer.subarray(0, bytesRead), position);
        position += bytesRead;
      }
      finishSparse(output, position);
      fsSync.fchmodSync(output, stat.mode & 0o7777);
      fsSync.futimesSync(output, mtimeSeconds, mtimeSeconds);
    } finally {
      fsSync.closeSync(output);
    }
  } finally {
    fsSync.closeSync(input);
  }
}
