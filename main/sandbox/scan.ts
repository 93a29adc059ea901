/**
 * One listing of a tree with the stat of every entry. On Linux with GNU find, `find -printf`
 * does the walk and the lstat calls in C (a Node lstat costs several times the syscall, which
 * is what keeps change detection near `git status`); elsewhere, or if find fails, a Node walk
 * does the same. Names keep their exact bytes (fs-path.ts).
 */
import { execFile } from 'node:child_process';
import fsSync from 'node:fs';
import { CancelledError } from '../../shared/errors.ts';
import { decodeName, inRoot } from './fs-path.ts';
import { walkSync, type WalkKind } from './walk.ts';

/** One entry below the root with what its lstat says. */
export interface ScanEntry {
  rel: string;
  kind: WalkKind;
  size: number;
  mtimeMs: number;
  /** Permission bits. */
  mode: number;
  ino: number;
  /** Symlink target (symlinks only). */
  target?: string;
}

/** Options of a scan. */
export interface ScanOptions {
  signal?: AbortSignal;
  /** Leaves out `.git` at the top (and everything in it). */
  skipTopGit?: boolean;
  /** Forces the portable Node walk (tests compare both). */
  portable?: boolean;
}

/**
 * Only the entries whose ctime is after `sinceMs` (GNU find only; null elsewhere). A ctime cannot
 * be set by anyone but the kernel, so every write, chmod, rename or utimes after that moment shows.
 */
export async function scanChangedSince(root: string, sinceMs: number, options: Pick<ScanOptions, 'signal' | 'skipTopGit'> = {}): Promise<ScanEntry[] | null> {
  if (!(await hasGnuFind())) return null;
  try {
    return await findScan(root, { ...options, since: sinceMs });
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    return null;
  }
}

const FORMAT = '%P\\0%y\\0%s\\0%T@\\0%m\\0%i\\0%l\\0';
const FIELDS = 7;
let gnuFind: boolean | undefined;

/** Lists every entry below `root` (directories included) with its stat. */
export async function scanTree(root: string, options: ScanOptions = {}): Promise<ScanEntry[]> {
  if (!options.portable && (await hasGnuFind())) {
    try {
      return await findScan(root, options);
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      // A find that fails (an unreadable folder, an odd build) is retried the portable way, which reports precisely.
    }
  }
  if (options.signal?.aborted) throw new CancelledError('Cancelled while listing files.');
  return nodeScan(root, options);
}

async function hasGnuFind(): Promise<boolean> {
  if (gnuFind !== undefined) return gnuFind;
  if (process.platform !== 'linux') return (gnuFind = false);
  gnuFind = await new Promise<boolean>((resolve) => {
    execFile('find', ['--version'], (error, stdout) => resolve(!error && String(stdout).includes('GNU findutils')));
  });
  return gnuFind;
}

function findScan(root: string, options: ScanOptions & { since?: number }): Promise<ScanEntry[]> {
  const prune = options.skipTopGit ? ['(', '-path', `${escapeGlob(root)}/.git`, '-prune', ')', '-o'] : [];
  const since = options.since === undefined ? [] : ['-newerct', `@${(options.since / 1000).toFixed(3)}`];
  return new Promise((resolve, reject) => {
    execFile('find', [root, '-mindepth', '1', ...prune, ...since, '-printf', FORMAT], { encoding: 'buffer', maxBuffer: 1 << 30, signal: options.signal }, (error, stdout) => {
      if (options.signal?.aborted) return reject(new CancelledError('Cancelled while listing files.'));
      if (error) return reject(error);
      resolve(parseFind(stdout));
    });
  });
}

function parseFind(out: Buffer): ScanEntry[] {
  const text = out.toString('utf8');
  // One decode and one split is far cheaper than a decode per field; names that are not UTF-8 take the byte path.
  if (text.includes('\uFFFD')) return parseFindBytes(out);
  const fields = text.split('\0');
  const entries: ScanEntry[] = [];
  for (let i = 0; i + FIELDS <= fields.length; i += FIELDS) entries.push(toEntry(fields[i]!, fields[i + 1]!, fields[i + 2]!, fields[i + 3]!, fields[i + 4]!, fields[i + 5]!, fields[i + 6]!));
  return entries;
}

function parseFindBytes(out: Buffer): ScanEntry[] {
  const entries: ScanEntry[] = [];
  const fields: Buffer[] = new Array(FIELDS);
  let start = 0;
  let field = 0;
  for (let end = out.indexOf(0, start); end !== -1; end = out.indexOf(0, start)) {
    fields[field++] = out.subarray(start, end);
    start = end + 1;
    if (field < FIELDS) continue;
    field = 0;
    const [rel, type, size, mtime, mode, ino, target] = fields.map((bytes, index) => (index === 0 || index === 6 ? name(bytes) : bytes.toString('latin1')));
    entries.push(toEntry(rel!, type!, size!, mtime!, mode!, ino!, target!));
  }
  return entries;
}

function toEntry(rel: string, type: string, size: string, mtime: string, mode: string, ino: string, target: string): ScanEntry {
  const kind = KINDS[type] ?? 'other';
  const entry: ScanEntry = { rel, kind, size: Number(size), mtimeMs: Number(mtime) * 1000, mode: parseInt(mode, 8), ino: Number(ino) };
  if (kind === 'symlink') entry.target = target;
  return entry;
}

const KINDS: Record<string, WalkKind> = { f: 'file', d: 'dir', l: 'symlink' };

function name(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.includes('\uFFFD') ? decodeName(bytes) : text;
}

function escapeGlob(text: string): string {
  return text.replace(/[[\]*?\\]/g, (char) => `\\${char}`);
}

function nodeScan(root: string, options: ScanOptions): ScanEntry[] {
  const entries: ScanEntry[] = [];
  walkSync(
    root,
    (rel, stat) => {
      const kind: WalkKind = stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : stat.isSymbolicLink() ? 'symlink' : 'other';
      const entry: ScanEntry = { rel, kind, size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode & 0o7777, ino: stat.ino };
      if (kind === 'symlink') entry.target = decodeName(fsSync.readlinkSync(inRoot(root, rel), { encoding: 'buffer' }));
      entries.push(entry);
    },
    { skip: options.skipTopGit ? (rel) => rel === '.git' : undefined, includeDirs: true },
  );
  return entries;
}
