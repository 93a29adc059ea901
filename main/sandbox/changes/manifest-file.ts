/**
 * How a base manifest sits on disk: one sealed file (a header line, the raw parts, and a sha256
 * of everything before it), replaced atomically, so a torn, truncated or edited manifest is
 * refused instead of read as "nothing changed". The facts change detection trusts (the baseline
 * time among them) live inside the seal, never in a file's mtime that any backup tool can touch.
 * Manifests written before the seal (three loose files) still read, without a baseline.
 */
import { createHash } from 'node:crypto';
import fsSync from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

const MAGIC = 'BINDERY-MANIFEST 2\n';
const DIGEST_LENGTH = 64;

/** The parts of a manifest as stored. */
export interface ManifestParts {
  /** Paths as raw bytes, each ending in NUL. */
  paths: Buffer;
  /** The numbers, `fields` per entry. */
  stats: Float64Array;
  fields: number;
  /** Symlink targets and hashes by entry index, as JSON. */
  extra: string;
  /** When provisioning finished (ms, the kernel's clock), or null when unknown. */
  baselineMs: number | null;
  /** False for a manifest from before the seal: nothing vouches for it, and it has no baseline. */
  sealed: boolean;
}

interface Header {
  fields: number;
  baselineMs: number | null;
  pathsBytes: number;
  statsBytes: number;
  extraBytes: number;
}

/** The sealed file of the manifest whose stem is `file`. */
export function sealedFile(file: string): string {
  return `${file}.sealed`;
}

/** The loose files of a manifest from before the seal. */
function looseFiles(file: string): string[] {
  return [`${file}.paths`, `${file}.stats`, `${file}.extra.json`, `${file}.stats.next`];
}

/** Writes the parts, sealed, through a temporary file renamed over the old one (flushed first: a torn one would read as damaged). */
export function writeParts(file: string, parts: Omit<ManifestParts, 'sealed'>): void {
  const extra = Buffer.from(parts.extra, 'utf8');
  const stats = Buffer.from(parts.stats.buffer, parts.stats.byteOffset, parts.stats.byteLength);
  const header: Header = { fields: parts.fields, baselineMs: parts.baselineMs, pathsBytes: parts.paths.length, statsBytes: stats.length, extraBytes: extra.length };
  const body = Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify(header)}\n`), parts.paths, stats, extra]);
  const digest = createHash('sha256').update(body).digest('hex');
  const temp = `${sealedFile(file)}.${randomUUID()}.tmp`;
  const fd = fsSync.openSync(temp, 'w');
  try {
    fsSync.writeSync(fd, body);
    fsSync.writeSync(fd, digest);
    fsSync.fsyncSync(fd);
  } finally {
    fsSync.closeSync(fd);
  }
  fsSync.renameSync(temp, sealedFile(file));
  for (const loose of looseFiles(file)) fsSync.rmSync(loose, { force: true });
  // The rename is in the folder: flushed, a power loss cannot bring back the older manifest (or none).
  fsyncFolder(path.dirname(file));
}

/** Flushes a folder's names to disk (Windows cannot open folders for that; its rename is the best there). */
function fsyncFolder(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = fsSync.openSync(dir, fsSync.constants.O_RDONLY);
  try {
    fsSync.fsyncSync(fd);
  } finally {
    fsSync.closeSync(fd);
  }
}

/** Reads the parts; throws, saying why, when the manifest is missing, torn or altered. */
export function readParts(file: string, legacyFields: (paths: number, numbers: number) => number): ManifestParts {
  let read: { raw: Buffer; stamp: string; settled: boolean };
  try {
    // A metadata folder swapped for a symlink could name another sandbox's sound manifest, as a swapped file could.
    if (fsSync.lstatSync(path.dirname(file), { throwIfNoEntry: false })?.isSymbolicLink()) throw new Error(`its folder ${path.dirname(file)} is a symlink, not the one Bindery made`);
    read = readWithStamp(sealedFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && fsSync.existsSync(`${file}.stats`)) return readLoose(file, legacyFields);
    throw new Error(`it cannot be read: ${(error as Error).message}`);
  }
  const { raw, stamp } = read;
  if (raw.length < MAGIC.length + DIGEST_LENGTH || raw.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error('it is not a Bindery manifest (truncated or overwritten)');
  const body = raw.subarray(0, raw.length - DIGEST_LENGTH);
  if (verified.get(file) !== stamp) {
    if (createHash('sha256').update(body).digest('hex') !== raw.toString('latin1', raw.length - DIGEST_LENGTH)) throw new Error('its checksum does not match (it was altered or torn)');
    if (read.settled) verified.set(file, stamp);
  }
  const newline = body.indexOf(10, MAGIC.length);
  const header = JSON.parse(body.toString('utf8', MAGIC.length, newline)) as Header;
  let at = newline + 1;
  const take = (length: number): Buffer => body.subarray(at, (at += length));
  const paths = take(header.pathsBytes);
  const statBytes = take(header.statsBytes);
  const extra = take(header.extraBytes).toString('utf8');
  if (at !== body.length || header.statsBytes % 8 !== 0) throw new Error('its parts do not add up');
  // Copied, not viewed: the numbers need 8-byte alignment.
  const stats = new Float64Array(header.statsBytes / 8);
  new Uint8Array(stats.buffer).set(statBytes);
  return { paths, stats, fields: header.fields, extra, baselineMs: header.baselineMs, sealed: true };
}

/**
 * Manifests this process verified, by the stat of the file as verified: any later write moves its
 * ctime (which no one can set back), so the same stat is the same bytes, and the checksum of a
 * manifest a live review reads at every look is computed once. Kept only for stats older than a
 * timestamp tick could hide a write in.
 */
const verified = new Map<string, string>();
const SETTLED_MS = 3000;

/**
 * How the sealed file is opened: never through a symlink (one swapped in could name another
 * sandbox's sound manifest, whose later baseline hides this one's changes), and without waiting
 * on a FIFO put in its place.
 */
const OPEN_SEALED = fsSync.constants.O_RDONLY | (fsSync.constants.O_NOFOLLOW ?? 0) | (fsSync.constants.O_NONBLOCK ?? 0);

/** Reads a file whole, with the stat of the very file read (taken before reading); only a regular file is read. */
function readWithStamp(at: string): { raw: Buffer; stamp: string; settled: boolean } {
  let fd: number;
  try {
    fd = fsSync.openSync(at, OPEN_SEALED);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new Error(`${at} is a symlink, not the manifest Bindery wrote`);
    throw error;
  }
  try {
    const stat = fsSync.fstatSync(fd, { bigint: true });
    if (!stat.isFile()) throw new Error(`${at} is not a regular file`);
    const raw = fsSync.readFileSync(fd);
    const changedMs = Number((stat.ctimeNs > stat.mtimeNs ? stat.ctimeNs : stat.mtimeNs) / 1_000_000n);
    return { raw, stamp: `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`, settled: changedMs < Date.now() - SETTLED_MS };
  } finally {
    fsSync.closeSync(fd);
  }
}

function readLoose(file: string, legacyFields: (paths: number, numbers: number) => number): ManifestParts {
  const paths = fsSync.readFileSync(`${file}.paths`);
  const bytes = fsSync.readFileSync(`${file}.stats`);
  const stats = new Float64Array(bytes.length / 8);
  new Uint8Array(stats.buffer).set(bytes);
  const extra = fsSync.readFileSync(`${file}.extra.json`, 'utf8');
  let count = 0;
  for (let at = paths.indexOf(0); at !== -1; at = paths.indexOf(0, at + 1)) count++;
  return { paths, stats, fields: legacyFields(count, stats.length), extra, baselineMs: null, sealed: false };
}
