/**
 * Reading a file the journal copies or checks: opened without following a final symlink, without
 * blocking on a FIFO, and refused unless it is a regular file; hashed from that one descriptor.
 */
import { createHash } from 'node:crypto';
import fsSync, { type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { BinderyError } from '../../../../shared/errors.ts';
import { diskPath } from './disk-path.ts';

/** Bytes read at a time from a large file. */
export const CHUNK = 1 << 20;
/** Read-only, and without blocking on a FIFO that replaced a file since it was looked at. */
export const READ_REGULAR = fsSync.constants.O_RDONLY | (fsSync.constants.O_NONBLOCK ?? 0);
/** Files up to this size are hashed from one synchronous read; larger ones in async chunks. */
const SMALL_HASH = 2 * 1024 * 1024;
/** `fs.read` as a promise. */
export const readFd = promisify(fsSync.read);

/**
 * Content is read never through a final symlink: one swapped in after the check would otherwise
 * copy the file it names (anyone's, outside the sandbox) into the original.
 */
const READ_CONTENT = READ_REGULAR | (fsSync.constants.O_NOFOLLOW ?? 0);

/** Opens a file for reading (see READ_CONTENT) and refuses anything that is not a regular file. */
export function openRegularSync(file: string): { fd: number; stat: Stats } {
  const notRegular = () => new BinderyError('io_error', `${file} is no longer a regular file (it changed while Bindery was reading it): retry.`);
  let fd: number;
  try {
    fd = fsSync.openSync(diskPath(file), READ_CONTENT);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw notRegular();
    throw error;
  }
  const stat = fsSync.fstatSync(fd);
  if (!stat.isFile()) {
    fsSync.closeSync(fd);
    throw notRegular();
  }
  return { fd, stat };
}

/** The sha256 (hex) of `bytes`. */
export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The sha256 (hex) of the `size` bytes of the file open as `fd`. */
export async function hashFd(fd: number, size: number): Promise<string> {
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
