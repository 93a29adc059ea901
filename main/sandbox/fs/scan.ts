/**
 * One listing of a tree with the stat of every entry. On Linux with GNU find, `find -printf`
 * does the walk and the lstat calls in C (a Node lstat costs several times the syscall, which
 * is what keeps change detection near `git status`); elsewhere, or if find fails, a Node walk
 * does the same. Change detection asks only for what changed since a moment: small trees are
 * walked in-process (cheaper than starting find), big ones by one find per core. Names keep
 * their exact bytes (paths.ts).
 */
import { execFile } from 'node:child_process';
import fsSync from 'node:fs';
import os from 'node:os';
import { CancelledError } from '../../../shared/errors.ts';
import { decodeName, inRoot } from './paths.ts';
import { isGnuTool } from './gnu-tool.ts';
import { balance } from './pool.ts';
import { walkSync, type WalkKind } from './walk.ts';

/** One entry below the root with what its lstat says. */
export interface ScanEntry {
  rel: string;
  kind: WalkKind;
  size: number;
  mtimeMs: number;
  /** When the inode last changed (content, mode, names in a folder); only the kernel sets it. */
  ctimeMs: number;
  /** Permission bits. */
  mode: number;
  ino: number;
  /** Symlink target (symlinks only). */
  target?: string;
  /** What a special file is (kind `other` only): never copied, and said so by name. */
  special?: SpecialKind;
}

/** The special files a copy leaves out, as people name them ("not copied: FIFO"). */
export type SpecialKind = 'FIFO' | 'socket' | 'block device' | 'character device' | 'special file';

/** What kind of special file an lstat describes (for an entry that is no file, folder or symlink). */
export function specialKindOf(stat: fsSync.Stats | fsSync.Dirent): SpecialKind {
  if (stat.isFIFO()) return 'FIFO';
  if (stat.isSocket()) return 'socket';
  if (stat.isBlockDevice()) return 'block device';
  if (stat.isCharacterDevice()) return 'character device';
  return 'special file';
}

/** Options of a scan. */
export interface ScanOptions {
  signal?: AbortSignal;
  /** Leaves out `.git` at the top (and everything in it). */
  skipTopGit?: boolean;
  /** Forces the portable Node walk (tests compare both). */
  portable?: boolean;
  /**
   * About how many entries the tree holds: a small tree is walked in-process, which is cheaper
   * than starting find (if the guess was low, the walk gives up after IN_PROCESS_LIMIT entries).
   */
  expected?: number;
}

/** Options of `scanChangedSince`. */
export interface ChangedScanOptions extends Pick<ScanOptions, 'signal' | 'skipTopGit' | 'expected'> {
  /** About how many entries a top-level entry holds: big trees are walked by parallel finds balanced by it. */
  weigh?: (topLevelName: string) => number;
}

/** Up to this many entries an lstat walk in this process is quicker than starting find. */
const IN_PROCESS_LIMIT = 3000;

/** From this many entries the walk is split over parallel finds. */
const PARALLEL_FROM = 20_000;

/**
 * Only the entries whose ctime is after `sinceMs` (null where that cannot be told: Windows, or a
 * big tree without GNU find). A ctime cannot be set by anyone but the kernel, so every write,
 * chmod, rename or utimes after that moment shows.
 */
export async function scanChangedSince(root: string, sinceMs: number, options: ChangedScanOptions = {}): Promise<ScanEntry[] | null> {
  const small = process.platform === 'win32' ? null : smallScan(root, options, sinceMs);
  if (small) return unlessMoved(small, sinceMs);
  if (!(await hasGnuFind())) return null;
  try {
    const since = { ...options, since: sinceMs };
    const groups = options.expected !== undefined && options.expected >= PARALLEL_FROM && options.weigh ? topLevelGroups(root, options.skipTopGit, options.weigh) : null;
    if (!groups) return unlessMoved(await findScan(root, since), sinceMs);
    return unlessMoved((await Promise.all(groups.map((names) => findScan(root, { ...since, startAt: names })))).flat(), sinceMs);
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    return null;
  }
}

/**
 * Null (look at everything) when a folder's ctime moved but not its mtime: it was renamed or
 * moved in (`mv a b`), and what it holds kept its old ctimes, so the ctime test would list none
 * of it and its files would read as deleted from their old place and never added at the new one.
 */
function unlessMoved(entries: ScanEntry[], sinceMs: number): ScanEntry[] | null {
  return entries.some((entry) => entry.kind === 'dir' && entry.mtimeMs <= sinceMs) ? null : entries;
}

/**
 * The top-level names of `root` in one group per core, balanced by `weigh`; null when a name is
 * not UTF-8 (it could not be passed to find) or there is nothing to split.
 */
function topLevelGroups(root: string, skipTopGit: boolean | undefined, weigh: (name: string) => number): string[][] | null {
  const names = fsSync.readdirSync(root).filter((name) => !(skipTopGit && name === '.git'));
  if (names.length < 2 || names.some((name) => name.includes('\uFFFD'))) return null;
  return balance(names.map((name) => ({ name, weight: weigh(name) + 1 })), Math.max(1, Math.min(os.availableParallelism(), 4)));
}

const FORMAT = '%P\\0%y\\0%s\\0%T@\\0%C@\\0%m\\0%i\\0%l\\0';
const FIELDS = 8;

/** Lists every entry below `root` (directories included) with its stat. */
export async function scanTree(root: string, options: ScanOptions = {}): Promise<ScanEntry[]> {
  const small = smallScan(root, options);
  if (small) return small;
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

function hasGnuFind(): Promise<boolean> {
  return isGnuTool('find', 'GNU findutils');
}

/**
 * Runs find below `root` (or from the top-level entries `startAt`, which are listed themselves,
 * as `./name` so no name reads as an option) and parses what it prints.
 */
function findScan(root: string, options: ScanOptions & { since?: number; startAt?: string[] }): Promise<ScanEntry[]> {
  const prune = options.skipTopGit && !options.startAt ? ['(', '-path', `${escapeGlob(root)}/.git`, '-prune', ')', '-o'] : [];
  const since = options.since === undefined ? [] : ['-newerct', `@${(options.since / 1000).toFixed(3)}`];
  const start = options.startAt ? [...options.startAt.map((name) => `./${name}`)] : [root, '-mindepth', '1'];
  const format = options.startAt ? FORMAT.replace('%P', '%p') : FORMAT;
  return new Promise((resolve, reject) => {
    execFile('find', [...start, ...prune, ...since, '-printf', format], { cwd: root, encoding: 'buffer', maxBuffer: 1 << 30, signal: options.signal }, (error, stdout) => {
      if (options.signal?.aborted) return reject(new CancelledError('Cancelled while listing files.'));
      if (error) return reject(error);
      const entries = parseFind(stdout);
      if (options.startAt) for (const entry of entries) entry.rel = entry.rel.slice(2);
      resolve(entries);
    });
  });
}

function parseFind(out: Buffer): ScanEntry[] {
  const text = out.toString('utf8');
  // One decode and one split is far cheaper than a decode per field; names that are not UTF-8 take the byte path.
  if (text.includes('\uFFFD')) return parseFindBytes(out);
  const fields = text.split('\0');
  const entries: ScanEntry[] = [];
  for (let i = 0; i + FIELDS <= fields.length; i += FIELDS) entries.push(toEntry(fields[i]!, fields[i + 1]!, fields[i + 2]!, fields[i + 3]!, fields[i + 4]!, fields[i + 5]!, fields[i + 6]!, fields[i + 7]!));
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
    const [rel, type, size, mtime, ctime, mode, ino, target] = fields.map((bytes, index) => (index === 0 || index === FIELDS - 1 ? name(bytes) : bytes.toString('latin1')));
    entries.push(toEntry(rel!, type!, size!, mtime!, ctime!, mode!, ino!, target!));
  }
  return entries;
}

function toEntry(rel: string, type: string, size: string, mtime: string, ctime: string, mode: string, ino: string, target: string): ScanEntry {
  const kind = KINDS[type] ?? 'other';
  const entry: ScanEntry = { rel, kind, size: Number(size), mtimeMs: Number(mtime) * 1000, ctimeMs: Number(ctime) * 1000, mode: parseInt(mode, 8), ino: Number(ino) };
  if (kind === 'symlink') entry.target = target;
  else if (kind === 'other') entry.special = SPECIALS[type] ?? 'special file';
  return entry;
}

const KINDS: Record<string, WalkKind> = { f: 'file', d: 'dir', l: 'symlink' };
/** find's %y letters of special files. */
const SPECIALS: Record<string, SpecialKind> = { p: 'FIFO', s: 'socket', b: 'block device', c: 'character device' };

function name(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.includes('\uFFFD') ? decodeName(bytes) : text;
}

function escapeGlob(text: string): string {
  return text.replace(/[[\]*?\\]/g, (char) => `\\${char}`);
}

/** The in-process walk of a tree expected to be small; null when it is not (or turns out not to be). */
function smallScan(root: string, options: ScanOptions, sinceMs?: number): ScanEntry[] | null {
  if (options.expected === undefined || options.expected > IN_PROCESS_LIMIT) return null;
  try {
    return nodeScan(root, options, sinceMs, IN_PROCESS_LIMIT);
  } catch (error) {
    if (error === TOO_MANY) return null;
    throw error;
  }
}

const TOO_MANY = new Error('more entries than expected');

/** The Node walk; with `sinceMs`, only the entries whose ctime is after it; throws TOO_MANY past `limit` entries. */
function nodeScan(root: string, options: ScanOptions, sinceMs?: number, limit = Infinity): ScanEntry[] {
  const entries: ScanEntry[] = [];
  let visited = 0;
  walkSync(
    root,
    (rel, stat) => {
      if (++visited > limit) throw TOO_MANY;
      if (sinceMs !== undefined && stat.ctimeMs <= sinceMs) return;
      const kind: WalkKind = stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : stat.isSymbolicLink() ? 'symlink' : 'other';
      const entry: ScanEntry = { rel, kind, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, mode: stat.mode & 0o7777, ino: stat.ino };
      if (kind === 'symlink') {
        const target = readlinkIfThere(inRoot(root, rel));
        // A link deleted since it was listed is not there any more.
        if (target === null) return;
        entry.target = target;
      } else if (kind === 'other') entry.special = specialKindOf(stat);
      entries.push(entry);
    },
    { skip: options.skipTopGit ? (rel) => rel === '.git' : undefined, includeDirs: true },
  );
  return entries;
}

function readlinkIfThere(link: string | Buffer): string | null {
  try {
    return decodeName(fsSync.readlinkSync(link, { encoding: 'buffer' }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EINVAL') return null;
    throw error;
  }
}
