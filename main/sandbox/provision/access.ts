/**
 * Access modes on disk: a read_only sandbox has every write bit cleared (files and folders) so a
 * tool cannot change it by accident; removing or widening it puts owner write bits back first.
 */
import fs from 'node:fs/promises';
import type { AccessMode } from '../../../shared/model.ts';
import { forEachLimit } from '../fs/index.ts';
import { inRoot } from '../fs/index.ts';
import { listTree } from '../fs/index.ts';

const ORDER: Record<AccessMode, number> = { read_only: 0, write_only: 1, read_write: 2 };

/** The access of a sandbox shared by two slots: the wider one (read_only with write_only needs both). */
export function widestAccess(a: AccessMode, b: AccessMode): AccessMode {
  if (a === b) return a;
  if ((a === 'read_only' && b === 'write_only') || (a === 'write_only' && b === 'read_only')) return 'read_write';
  return ORDER[a] > ORDER[b] ? a : b;
}

/** Clears write bits everywhere below `root` (and on it). Symlinks are left alone. */
export async function makeReadOnly(root: string): Promise<void> {
  const entries = await listTree(root);
  await forEachLimit(entries, 32, async (entry) => {
    if (entry.kind === 'symlink' || entry.kind === 'other') return;
    const at = inRoot(root, entry.rel);
    const stat = await fs.stat(at);
    await fs.chmod(at, stat.mode & 0o7555);
  });
  const stat = await fs.stat(root);
  await fs.chmod(root, stat.mode & 0o7555);
}

/** Gives the owner write permission on `root` and every folder below it (files keep their bits). */
export async function makeFoldersWritable(root: string): Promise<void> {
  const rootStat = await fs.stat(root).catch(() => null);
  if (!rootStat) return;
  await fs.chmod(root, rootStat.mode | 0o200);
  const entries = await listTree(root);
  for (const entry of entries) {
    if (entry.kind !== 'dir') continue;
    const at = inRoot(root, entry.rel);
    const stat = await fs.stat(at);
    await fs.chmod(at, stat.mode | 0o200);
  }
}

/** Puts back the permission bits a copied sandbox's files had (from its manifest), folders writable. */
export async function restoreModes(root: string, modes: Map<string, number>): Promise<void> {
  await makeFoldersWritable(root);
  const entries = [...modes];
  await forEachLimit(entries, 32, async ([rel, mode]) => {
    await fs.chmod(inRoot(root, rel), mode).catch(() => undefined);
  });
}

/** Gives the owner write permission on everything below `root` (widening read_only to read_write). */
export async function makeWritable(root: string): Promise<void> {
  await makeFoldersWritable(root);
  const entries = await listTree(root);
  await forEachLimit(entries, 32, async (entry) => {
    if (entry.kind !== 'file') return;
    const at = inRoot(root, entry.rel);
    const stat = await fs.stat(at);
    await fs.chmod(at, stat.mode | 0o200);
  });
}
