/**
 * The base manifest of a copied sandbox: what each original file was when it was copied (size,
 * mtime, mode, inode, symlink target) and a content hash for files modified within the racy
 * window, whose timestamps cannot prove they are unchanged.
 */
import { createHash } from 'node:crypto';
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
  return path.join(meta, 'manifest.json');
}

/** Marks the moment provisioning finished: every later change to the sandbox has a newer ctime. */
export function baselineFile(meta: string): string {
  return path.join(meta, 'baseline');
}

/** Writes the baseline marker (call after the last change Bindery itself makes to the sandbox). */
export async function writeBaseline(meta: string): Promise<void> {
  await fs.writeFile(baselineFile(meta), new Date().toISOString());
}

/**
 * The baseline in ms: the marker's mtime, stamped by the same kernel clock as the sandbox files'
 * ctimes (so no skew between Node's clock and the filesystem's). Null when there is none.
 */
export function readBaseline(meta: string): number | null {
  return fsSync.statSync(baselineFile(meta), { throwIfNoEntry: false })?.mtimeMs ?? null;
}

/** True when a file's mtime is so recent (relative to `copiedAt`) that only its content can prove it unchanged. */
export function isRacy(mtimeMs: number, copiedAt: number): boolean {
  return mtimeMs > copiedAt - RACY_WINDOW_MS;
}

/** True when two mtimes are the same instant. */
export function sameMtime(a: number, b: number): boolean {
  return Math.abs(a - b) < MTIME_TOLERANCE_MS;
}

type Tuple = [string, 'f' | 'l', number, number, number, number, string | null, string | null, 0 | 1];

function toTuple(entry: ManifestEntry): Tuple {
  return [entry.path, entry.type === 'file' ? 'f' : 'l', entry.size, entry.mtimeMs, entry.mode, entry.ino, entry.target ?? null, entry.sha256 ?? null, entry.racy ? 1 : 0];
}

function fromTuple(tuple: Tuple): ManifestEntry {
  const entry: ManifestEntry = { path: tuple[0], type: tuple[1] === 'f' ? 'file' : 'symlink', size: tuple[2], mtimeMs: tuple[3], mode: tuple[4], ino: tuple[5] };
  if (tuple[6] !== null) entry.target = tuple[6];
  if (tuple[7] !== null) entry.sha256 = tuple[7];
  if (tuple[8] === 1) entry.racy = true;
  return entry;
}

/** Serializes a manifest: one JSON array of tuples, which parses in one call (a line per entry costs a parse each). */
function serialize(entries: Iterable<ManifestEntry>): string {
  const tuples: Tuple[] = [];
  for (const entry of entries) tuples.push(toTuple(entry));
  return JSON.stringify(tuples);
}

/** Writes a manifest. */
export async function writeManifest(file: string, entries: Iterable<ManifestEntry>): Promise<void> {
  await fs.writeFile(file, serialize(entries));
}

/** Replaces a manifest atomically (a detection run that verified racy entries saves what it learned). */
export function rewriteManifestSync(file: string, manifest: Manifest): void {
  const temp = `${file}.next`;
  fsSync.writeFileSync(temp, serialize(manifest.values()));
  fsSync.renameSync(temp, file);
}

/** Reads a manifest written by `writeManifest`. */
export function readManifest(file: string): Manifest {
  const map: Manifest = new Map();
  for (const tuple of JSON.parse(fsSync.readFileSync(file, 'utf8')) as Tuple[]) map.set(tuple[0], fromTuple(tuple));
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
