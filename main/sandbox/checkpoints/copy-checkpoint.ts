/**
 * A checkpoint of a copied sandbox: a manifest of its files (path, type, size, mtime, mode, inode,
 * symlink target; the sandbox manifest's format) plus the content of the files a review may diff,
 * kept by hash. Only what can matter is read: at a run's start the files already changed against
 * the base (the others are the base, which the sandbox keeps), at its end the files whose stat
 * moved since the start. So a checkpoint costs one scan and the changed files, not a copy.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { readManifest, writeManifest, type ManifestEntry } from '../changes/index.ts';
import { inRoot, scanTree } from '../fs/index.ts';

/** The folder of one sandbox's copy checkpoints under the data directory's `checkpoints`. */
export function copyCheckpointDir(tempDir: string, sandboxId: string): string {
  return path.join(path.dirname(tempDir), 'checkpoints', sandboxId);
}

function blobPath(dir: string, sha256: string): string {
  return path.join(dir, 'blobs', sha256.slice(0, 2), sha256.slice(2));
}

/** The same file at two moments, by what a stat tells (the manifest's own rule: size, mtime, inode, target). */
function sameStat(a: ManifestEntry, b: ManifestEntry): boolean {
  return a.type === b.type && a.size === b.size && Math.abs(a.mtimeMs - b.mtimeMs) < 1 && a.ino === b.ino && a.target === b.target;
}

/**
 * Writes the manifest `name` of the sandbox folder, keeping the content of each file that `keep`
 * names or whose stat differs from its entry in the manifest `since`. Returns the manifest's file.
 */
export async function writeCopyCheckpoint(sandboxPath: string, dir: string, name: string, keep: ReadonlySet<string>, since?: string): Promise<string> {
  const before = since ? readManifest(since) : null;
  const scanned = await scanTree(sandboxPath, { skipTopGit: true });
  const entries: ManifestEntry[] = [];
  for (const item of scanned) {
    if (item.kind !== 'file' && item.kind !== 'symlink') continue;
    const entry: ManifestEntry = { path: item.rel, type: item.kind, size: item.size, mtimeMs: item.mtimeMs, mode: item.mode, ino: item.ino, ctimeMs: item.ctimeMs };
    if (item.target !== undefined) entry.target = item.target;
    const earlier = before?.get(item.rel);
    const wanted = keep.has(item.rel) || (before !== null && (!earlier || !sameStat(earlier, entry)));
    if (wanted && item.kind === 'file') {
      const kept = await keepContent(dir, inRoot(sandboxPath, item.rel));
      if (kept) entry.sha256 = kept;
    } else if (earlier?.sha256 && sameStat(earlier, entry)) entry.sha256 = earlier.sha256;
    entries.push(entry);
  }
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeManifest(file, entries);
  return file;
}

/** Copies a file into the content store under its hash; null when it vanished meanwhile. */
async function keepContent(dir: string, file: string | Buffer): Promise<string | null> {
  const data = await fs.readFile(file).catch(() => null);
  if (data === null) return null;
  const sha = createHash('sha256').update(data).digest('hex');
  const target = blobPath(dir, sha);
  if (await fs.lstat(target).then(() => true, () => false)) return sha;
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temp, data);
  await fs.rename(temp, target);
  return sha;
}

/** The paths that differ between two copy checkpoints (by hash where both kept one, else by stat). */
export function manifestsDiffer(fromFile: string, toFile: string): string[] {
  const from = readManifest(fromFile);
  const to = readManifest(toFile);
  const differ: string[] = [];
  for (const [rel, after] of to) {
    const before = from.get(rel);
    if (!before) differ.push(rel);
    else if (before.sha256 && after.sha256 && before.type === after.type) {
      if (before.sha256 !== after.sha256 || before.mode !== after.mode) differ.push(rel);
    } else if (!sameStat(before, after) || before.mode !== after.mode) differ.push(rel);
  }
  for (const [rel] of from) if (to.indexOf(rel) === -1) differ.push(rel);
  return differ.sort();
}

/**
 * One path of a copy checkpoint: the kept content (null when not kept: the base's then, at a
 * start), size and mode; null when the path was absent.
 */
export async function manifestEntry(dir: string, file: string, rel: string): Promise<{ id?: string; data: Buffer | null; size: number; mode: number } | null> {
  const entry = readManifest(file).get(rel);
  if (!entry) return null;
  const mode = entry.type === 'symlink' ? 0o120000 : 0o100000 | (entry.mode & 0o777);
  if (entry.type === 'symlink') return { data: Buffer.from(entry.target ?? ''), size: entry.size, mode };
  const data = entry.sha256 ? await fs.readFile(blobPath(dir, entry.sha256)).catch(() => null) : null;
  return { ...(entry.sha256 ? { id: entry.sha256 } : {}), data, size: entry.size, mode };
}
