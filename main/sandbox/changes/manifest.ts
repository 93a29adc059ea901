/**
 * The base manifest of a copied sandbox: what each original file was when it was copied (size,
 * mtime, mode, inode, symlink target) and a content hash for files modified within the racy
 * window, whose timestamps cannot prove they are unchanged.
 */
import { createHash } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { decodeName, encodeName, hasEscapes } from '../fs/index.ts';
import { readParts, writeParts } from './manifest-file.ts';
import type { EntryType } from '../../../shared/dto.ts';

/** Files modified this close to the copy get a content hash (timestamps can't tell them apart). */
export const RACY_WINDOW_MS = 3000;

/** Two file times closer than this are the same (utimes and find's seconds round-trip through floats). */
const TIME_TOLERANCE_MS = 1;

/** What a file or symlink of the original was at copy time. */
export interface ManifestEntry {
  path: string;
  type: EntryType;
  size: number;
  mtimeMs: number;
  mode: number;
  ino: number;
  /**
   * When the original's inode last changed, at copy time: a write that put the old mtime back
   * still moves it, and no one can set it back. Absent from manifests written before it was kept.
   */
  ctimeMs?: number;
  target?: string;
  /** Content hash of files that were racy at copy time (drift checks compare it). */
  sha256?: string;
  /** Set while the sandbox copy's timestamps cannot prove it unchanged; cleared once its content is verified later. */
  racy?: true;
}


/** The manifest inside a sandbox's metadata folder (the stem of its file). */
export function manifestFile(meta: string): string {
  return path.join(meta, 'manifest');
}

/** A scratch file whose mtime the kernel stamps, to read its clock (removed at once). */
function clockFile(meta: string): string {
  return path.join(meta, 'baseline');
}

/**
 * Records in the manifest the moment provisioning finished (call after the last change Bindery
 * itself makes to the sandbox): every later change to the sandbox has a newer ctime. The time is
 * a file's mtime, stamped by the same kernel clock as the sandbox files' ctimes (so no skew
 * between Node's clock and the filesystem's), and kept inside the sealed manifest, where no
 * touch of a marker can move it.
 */
export function writeBaseline(meta: string): void {
  const clock = clockFile(meta);
  fsSync.writeFileSync(clock, new Date().toISOString());
  const stamped = fsSync.statSync(clock).mtimeMs;
  fsSync.rmSync(clock, { force: true });
  const manifest = Manifest.read(manifestFile(meta));
  manifest.baselineMs = stamped;
  manifest.saveSync();
}

/**
 * True when a file changed so close to `copiedAt` (or during the copy) that only its content can
 * prove what was copied. The ctime counts too: it catches a write that set an old mtime.
 */
export function isRacy(stat: { mtimeMs: number; ctimeMs: number }, copiedAt: number): boolean {
  return Math.max(stat.mtimeMs, stat.ctimeMs) > copiedAt - RACY_WINDOW_MS;
}

/** True when two file times (ms) are the same instant. */
export function sameInstant(a: number, b: number): boolean {
  return Math.abs(a - b) < TIME_TOLERANCE_MS;
}

const NUL = Buffer.from([0]);

const FIELDS = 7; // size, mtimeMs, mode, ino, type (0 file, 1 symlink), racy (0/1), ctimeMs (NaN: unknown)
/** Manifests written before the ctime was kept have one number fewer per entry. */
const FIELDS_WITHOUT_CTIME = 6;

/**
 * A manifest holds the paths sorted (raw bytes, NUL-separated), their numbers as one
 * Float64Array, and the few extras (symlink targets, hashes) as JSON, sealed in one file (see
 * manifest-file.ts). Reading it costs a split and a buffer copy instead of a JSON parse and an
 * object per file, which keeps change detection on 100k files fast and small; lookups are
 * binary searches.
 */
export class Manifest {
  /**
   * When provisioning finished (ms, stamped by the kernel's clock): every later change to the
   * sandbox has a newer ctime. Kept inside the sealed manifest; null when unknown.
   */
  baselineMs: number | null = null;
  /** False for a manifest from before the seal: nothing vouches for its numbers. */
  sealed = true;

  private constructor(
    private readonly file: string,
    private readonly paths: string[],
    private readonly stats: Float64Array,
    private readonly extras: Record<number, { target?: string; sha256?: string }>,
    private readonly fields = FIELDS,
  ) {}

  /** Builds a manifest from entries (any order). */
  static from(file: string, entries: ManifestEntry[]): Manifest {
    const sorted = [...entries].sort((a, b) => compare(a.path, b.path));
    const stats = new Float64Array(sorted.length * FIELDS);
    const extras: Record<number, { target?: string; sha256?: string }> = {};
    sorted.forEach((entry, i) => {
      const o = i * FIELDS;
      stats[o] = entry.size;
      stats[o + 1] = entry.mtimeMs;
      stats[o + 2] = entry.mode;
      stats[o + 3] = entry.ino;
      stats[o + 4] = entry.type === 'file' ? 0 : 1;
      stats[o + 5] = entry.racy ? 1 : 0;
      stats[o + 6] = entry.ctimeMs ?? NaN;
      if (entry.target !== undefined || entry.sha256 !== undefined) extras[i] = { target: entry.target, sha256: entry.sha256 };
    });
    return new Manifest(file, sorted.map((e) => e.path), stats, extras);
  }

  /** Reads the manifest written at `file`; throws, saying why, when it is missing, torn or altered. */
  static read(file: string): Manifest {
    const parts = readParts(file, (count, numbers) => (count > 0 && numbers === count * FIELDS_WITHOUT_CTIME ? FIELDS_WITHOUT_CTIME : FIELDS));
    const raw = parts.paths;
    const text = raw.toString('utf8');
    const paths = raw.length === 0 ? [] : text.includes('\uFFFD') ? splitBytes(raw) : text.slice(0, -1).split('\0');
    if (parts.stats.length !== paths.length * parts.fields) throw new Error(`it lists ${paths.length} path(s) but ${parts.stats.length} number(s)`);
    const extras = JSON.parse(parts.extra) as Record<number, { target?: string; sha256?: string }>;
    const manifest = new Manifest(file, paths, parts.stats, extras, parts.fields);
    manifest.baselineMs = parts.baselineMs;
    manifest.sealed = parts.sealed;
    return manifest;
  }

  /** How many files and symlinks it lists. */
  get size(): number {
    return this.paths.length;
  }

  /** The position of `rel`, or -1. */
  indexOf(rel: string): number {
    const at = lowerBound(this.paths, rel);
    return this.paths[at] === rel ? at : -1;
  }

  /** The entry at a position. */
  entryAt(i: number): ManifestEntry {
    const o = i * this.fields;
    const s = this.stats;
    const entry: ManifestEntry = { path: this.paths[i]!, type: s[o + 4] === 0 ? 'file' : 'symlink', size: s[o]!, mtimeMs: s[o + 1]!, mode: s[o + 2]!, ino: s[o + 3]! };
    const extra = this.extras[i];
    if (extra?.target !== undefined) entry.target = extra.target;
    if (extra?.sha256 !== undefined) entry.sha256 = extra.sha256;
    if (s[o + 5] === 1) entry.racy = true;
    if (this.fields === FIELDS && !Number.isNaN(s[o + 6])) entry.ctimeMs = s[o + 6]!;
    return entry;
  }

  /** The entry of `rel`, if listed. */
  get(rel: string): ManifestEntry | undefined {
    const i = this.indexOf(rel);
    return i === -1 ? undefined : this.entryAt(i);
  }

  /** How many paths are `name` or below it (a top-level name, for balancing work). */
  countUnder(name: string): number {
    const self = this.paths[lowerBound(this.paths, name)] === name ? 1 : 0;
    return self + lowerBound(this.paths, successor(`${name}/`)) - lowerBound(this.paths, `${name}/`);
  }

  /** Every path with its entry, in path order. */
  *[Symbol.iterator](): IterableIterator<[string, ManifestEntry]> {
    for (let i = 0; i < this.paths.length; i++) yield [this.paths[i]!, this.entryAt(i)];
  }

  /** Every path, in order. */
  keys(): string[] {
    return [...this.paths];
  }

  /**
   * The entries below `dir` ('' for the root) whose name directly under `dir` is not in `names`:
   * what a folder that lost entries lost. Visits each direct child once (subtrees are skipped by
   * binary search), so it costs the folder's width, not the tree's size.
   */
  lostUnder(dir: string, names: Set<string>): number[] {
    const prefix = dir === '' ? '' : `${dir}/`;
    const lost: number[] = [];
    let i = prefix === '' ? 0 : lowerBound(this.paths, prefix);
    const end = prefix === '' ? this.paths.length : lowerBound(this.paths, successor(prefix));
    while (i < end) {
      const rel = this.paths[i]!;
      const slash = rel.indexOf('/', prefix.length);
      const name = rel.slice(prefix.length, slash === -1 ? undefined : slash);
      const subtreeEnd = slash === -1 ? i + 1 : lowerBound(this.paths, successor(rel.slice(0, slash + 1)), i);
      if (!names.has(name)) for (let k = i; k < subtreeEnd; k++) lost.push(k);
      i = subtreeEnd;
    }
    return lost;
  }

  /** Marks a racy entry verified: from now on its stat is trusted. */
  markVerified(i: number): void {
    this.stats[i * this.fields + 5] = 0;
  }


  /** Records the content hash of an entry, learned where its stat proved the original unchanged. */
  learnHash(i: number, sha256: string): void {
    this.extras[i] = { ...this.extras[i], sha256 };
  }

  /** Writes the manifest, sealed, in one atomic replace. */
  saveSync(): void {
    // One string when every name is UTF-8 (the common case); exact bytes name by name otherwise.
    const paths = this.paths.some(hasEscapes) ? Buffer.concat(this.paths.flatMap((p) => [encodeName(p), NUL])) : Buffer.from(`${this.paths.join('\0')}${this.paths.length > 0 ? '\0' : ''}`);
    writeParts(this.file, { paths, stats: this.stats, fields: this.fields, extra: JSON.stringify(this.extras), baselineMs: this.baselineMs });
  }
}

/** Writes a manifest of `entries` at `file`. */
export async function writeManifest(file: string, entries: ManifestEntry[]): Promise<void> {
  Manifest.from(file, entries).saveSync();
}

/** Reads the manifest at `file`. */
export function readManifest(file: string): Manifest {
  return Manifest.read(file);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first index in `sorted` (from `from`) whose value is not below `value`. */
function lowerBound(sorted: string[], value: string, from = 0): number {
  let lo = from;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The smallest string above every string that starts with `prefix`. */
function successor(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

function splitBytes(raw: Buffer): string[] {
  const out: string[] = [];
  let start = 0;
  for (let end = raw.indexOf(0, start); end !== -1; end = raw.indexOf(0, start)) {
    out.push(decodeName(raw.subarray(start, end)));
    start = end + 1;
  }
  return out;
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
