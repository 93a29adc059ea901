/** File moves for the trash: whole folders by rename (a copy across filesystems), single entries exactly. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { makeFoldersWritable } from './access.ts';
import { copyTree } from './copy-tree.ts';

/** Moves a folder; across filesystems it is copied then removed. */
export async function moveDir(from: string, to: string): Promise<void> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyTree(from, to);
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
