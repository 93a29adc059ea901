/**
 * The base manifest of a copied sandbox: what each original file was when it was copied (size,
 * mtime, mode, inode, symlink target) and a content hash for files modified within the racy
 * window, whose timestamps cannot prove they are unchanged. One JSON line per entry.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Files modified this close to the copy get a content hash (timestamps can't tell them apart). */
export const RACY_WINDOW_MS = 3000;

/** Two mtimes closer than this are the same (utimes round-trips through float seconds). */
const MTIME_TOLERANCE_MS = 1;

/** What a file or symlink of the original was at copy time. */
export interface ManifestEntry {
  path: string;
  type: 'file' | 'symlink';
  size: number;
  mtimeMs: number;
  mode: number;
  ino: number;
  target?: string;
  /** Content hash of files that were racy at copy time (drift checks compare it). */
  sha256?: string;
  /** Set while the sandbox copy's timestamps cannot prove it unchanged; cleared once its content is verified later. */
  racy?: true;
}

/** A manifest loaded for lookups. */
export type Manifest = Map<string, ManifestEntry>;

/** The manifest file inside a sandbox's metadata folder. */
export function manifestFile(meta: string): string {
  return path.join(meta, 'manifest.jsonl');
}

/** Permission bits only. */
export function permissionBits(mode: number): number {
  return mode & 0o7777;
}

/** A manifest entry from an lstat of the original. */
export function entryFromStat(relPath: string, stat: Stats, target?: string): ManifestEntry {
  const entry: ManifestEntry = {
    path: relPath,
    type: stat.isSymbolicLink() ? 'symlink' : 'file',
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    mode: permissionBits(stat.mode),
    ino: stat.ino,
  };
  if (target !== undefined) entry.target = target;
  return entry;
}

/** True when a file's mtime is so recent (relative to `copiedAt`) that only its content can prove it unchanged. */
export function isRacy(mtimeMs: number, copiedAt: number): boolean {
  return mtimeMs > copiedAt - RACY_WINDOW_MS;
}

/** True when two mtimes are the same instant. */
export function sameMtime(a: number, b: number): boolean {
  return Math.abs(a - b) < MTIME_TOLERANCE_MS;
}

/** Writes a manifest as JSON lines. */
export async function writeManifest(file: string, entries: Iterable<ManifestEntry>): Promise<void> {
  const lines: string[] = [];
  for (const entry of entries) lines.push(JSON.stringify(entry));
  await fs.writeFile(file, lines.length ? `${lines.join('\n')}\n` : '');
}

/** Replaces a manifest atomically (a detection run that verified racy entries saves what it learned). */
export function rewriteManifestSync(file: string, manifest: Manifest): void {
  const lines: string[] = [];
  for (const entry of manifest.values()) lines.push(JSON.stringify(entry));
  const temp = `${file}.next`;
  fsSync.writeFileSync(temp, lines.length ? `${lines.join('\n')}\n` : '');
  fsSync.renameSync(temp, file);
}

/** Reads a manifest written by `writeManifest`. */
export function readManifest(file: string): Manifest {
  const map: Manifest = new Map();
  const text = fsSync.readFileSync(file, 'utf8');
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) {
      const entry = JSON.parse(text.slice(start, end)) as ManifestEntry;
      map.set(entry.path, entry);
    }
    start = end + 1;
  }
  return map;
}

/** The sha256 of a file (hex): small files in one read, large ones streamed. */
export async function sha256File(file: string | Buffer, size = Infinity): Promise<string> {
  const hash = createHash('sha256');
  if (size <= 1 << 20) return hash.update(await fs.readFile(file)).digest('hex');
  for await (const chunk of fsSync.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The same, synchronously, for the change walk (only racy files get here). */
export function sha256FileSync(file: string | Buffer): string {
  return createHash('sha256').update(fsSync.readFileSync(file)).digest('hex');
}
