/**
 * Copies a directory tree the fast way: a scan of the source (names and stats, see scan.ts) and,
 * beside it, `cp -a` over groups of top-level entries on Linux; elsewhere, after the scan,
 * concurrent `copyFile` with COPYFILE_FICLONE. Either way a reflink where the filesystem supports
 * it (a probe says which happened), symlinks recreated unchanged, timestamps and modes kept like
 * `cp -a`, and a sparse file's holes kept (cp does; the file-by-file copy sees to it). Returns
 * the base manifest of what was copied. Cancelling stops the copy; the caller
 * removes the target.
 */
import { randomUUID } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import { CancelledError } from '../../../shared/errors.ts';
import path from 'node:path';
import { copyWithCp, topLevelUnits } from './copy-native.ts';
import { copyOnWorkers, WORKER_THRESHOLD, type CopyJob } from './copy-workers.ts';
import { decodeName, encodeName, hasEscapes, inRoot } from '../fs/index.ts';
import { isRacy, RACY_WINDOW_MS, sha256File, type ManifestEntry } from '../changes/index.ts';
import type { CopyMethod } from '../../../shared/dto.ts';
import { forEachLimit } from '../fs/index.ts';
import { scanTree, type ScanEntry, type SpecialKind } from '../fs/index.ts';
import { copySparseFile, hasHoles } from './sparse-copy.ts';

/** Progress of a long provisioning step. */
export interface ProvisionProgress {
  phase: 'listing' | 'copying' | 'snapshot' | 'checkout' | 'finishing';
  done: number;
  total: number;
}

/** Options of `copyTree`. */
export interface CopyTreeOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ProvisionProgress) => void;
  concurrency?: number;
}

/** What `copyTree` did. */
export interface CopyTreeResult {
  entries: ManifestEntry[];
  method: CopyMethod;
  files: number;
  bytes: number;
  /** Sockets, devices and pipes, which are not copied (cp makes some: they are removed again). */
  skipped: SkippedEntry[];
}

/** A special file left out of a copy, and what it is. */
export interface SkippedEntry {
  rel: string;
  kind: SpecialKind;
}

const CLONE_UNSUPPORTED = new Set(['EOPNOTSUPP', 'ENOTSUP', 'EXDEV', 'ENOSYS', 'EINVAL', 'ENOTTY', 'EBADF', 'EPERM']);

/** Copies `source` into the new directory `target` (which must not exist). */
export async function copyTree(source: string, target: string, options: CopyTreeOptions = {}): Promise<CopyTreeResult> {
  const { signal, onProgress } = options;
  const check = (): void => {
    if (signal?.aborted) throw new CancelledError('Provisioning was cancelled; nothing was kept.');
  };
  onProgress?.({ phase: 'listing', done: 0, total: 0 });
  fsSync.mkdirSync(target);
  const units = topLevelUnits(source);
  const copiedAt = Date.now();
  let done = 0;
  let total = 0;
  let step = 1;
  const report = (count: number): void => {
    const before = done;
    done += count;
    if (Math.floor(before / step) !== Math.floor(done / step) || done === total) onProgress?.({ phase: 'copying', done, total });
  };
  let scanning: Promise<ScanEntry[]> | undefined;
  const scan = (): Promise<ScanEntry[]> =>
    (scanning ??= scanTree(source, { signal, expected: units?.reduce((sum, unit) => sum + unit.weight, 0) }).then((listing) => {
      total = listing.filter((e) => e.kind === 'file' || e.kind === 'symlink').length;
      step = Math.max(1, Math.floor(total / 100));
      return listing;
    }));
  // On Linux `cp -a` copies while the scan lists; elsewhere (or for odd top-level names) file by file after it.
  const copied = units ? await copyWithCp(source, target, units, scan, { signal, onDone: report }) : null;
  const listing = await scan();
  check();
  const dirs = listing.filter((e) => e.kind === 'dir');
  const items = listing.filter((e) => e.kind === 'file' || e.kind === 'symlink');
  const skipped = listing.filter((e) => e.kind === 'other').map((e) => ({ rel: e.rel, kind: e.special ?? 'special file' }));
  const firstFile = items.find((item) => item.kind === 'file');
  const method: CopyMethod = firstFile && (await canClone(inRoot(source, firstFile.rel), target)) ? 'clone' : 'copy';
  const vanished = copied ?? (await copyFiles(method === 'clone' ? fsSync.constants.COPYFILE_FICLONE : 0));
  // cp -a makes FIFOs and sockets anew; the file-by-file copy cannot. Either way the sandbox has none, as its note says.
  if (copied) for (const entry of skipped) await removeSpecial(inRoot(target, entry.rel));
  check();
  const notCopied = await reconcileWithCopy(source, target, listing, copiedAt - RACY_WINDOW_MS);

  /** The file-by-file copy: folders first, then files (many on worker threads), folder modes last. */
  async function copyFiles(flag: number): Promise<Set<string>> {
    for (const dir of dirs) await fs.mkdir(inRoot(target, dir.rel));
    const lost = new Set<string>();
    // Files that may be sparse stay off the workers, whose copyFile would fill their holes.
    const bulk = total >= WORKER_THRESHOLD ? items.filter((item) => item.kind === 'file' && !hasEscapes(item.rel) && !mayBeSparse(item, flag)) : [];
    const inBulk = new Set(bulk);
    await forEachLimit(items, options.concurrency ?? 32, async (item) => {
      check();
      if (inBulk.has(item)) return;
      const to = inRoot(target, item.rel);
      try {
        if (item.kind === 'symlink') await fs.symlink(encodeName(item.target ?? ''), to);
        else if (mayBeSparse(item, flag) && hasHoles(fsSync.lstatSync(inRoot(source, item.rel)))) await copySparseFile(inRoot(source, item.rel), to, item.mtimeMs / 1000);
        else {
          await fs.copyFile(inRoot(source, item.rel), to, flag);
          await fs.utimes(to, item.mtimeMs / 1000, item.mtimeMs / 1000);
        }
      } catch (error) {
        // A file deleted from a live original while it is copied is left out of the copy and the manifest alike.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || fsSync.existsSync(inRoot(source, item.rel))) throw error;
        lost.add(item.rel);
      }
      report(1);
    });
    if (bulk.length > 0) {
      const jobs: CopyJob[] = bulk.map((item) => [path.join(source, item.rel), path.join(target, item.rel), item.mtimeMs / 1000]);
      for (const from of await copyOnWorkers(jobs, flag, { signal, onDone: report })) lost.add(path.relative(source, from).split(path.sep).join('/'));
    }
    // Directory modes last: a read-only source directory must not block copying into it.
    for (let i = dirs.length - 1; i >= 0; i--) await fs.chmod(inRoot(target, dirs[i]!.rel), dirs[i]!.mode);
    return lost;
  }

  const entries: ManifestEntry[] = [];
  let bytes = 0;
  for (const item of items) {
    if (vanished.has(item.rel) || notCopied(item.rel)) continue;
    const entry: ManifestEntry = { path: item.rel, type: item.kind === 'symlink' ? 'symlink' : 'file', size: item.size, mtimeMs: item.mtimeMs, mode: item.mode, ino: item.ino, ctimeMs: item.ctimeMs };
    if (item.kind === 'symlink') entry.target = item.target ?? '';
    if (isRacy(item, copiedAt)) {
      // Changed around the copy: the scan may have seen another version than cp copied, so the base is the copy.
      const copy = inRoot(target, item.rel);
      const stat = await fs.lstat(copy).catch(() => null);
      if (!stat || (stat.isSymbolicLink() ? 'symlink' : stat.isFile() ? 'file' : null) !== entry.type) continue;
      Object.assign(entry, { size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode & 0o7777 });
      if (entry.type === 'symlink') entry.target = decodeName(await fs.readlink(copy, { encoding: 'buffer' }));
      else entry.sha256 = await sha256File(copy, stat.size);
      entry.racy = true;
    }
    if (entry.type === 'file') bytes += entry.size;
    entries.push(entry);
  }
  return { entries, method, files: items.length, bytes, skipped };
}

/** Removes what cp made of a special file, if that is what is there (a name taken since stays). */
async function removeSpecial(at: string | Buffer): Promise<void> {
  const stat = await fs.lstat(at).catch(() => null);
  if (stat && !stat.isFile() && !stat.isDirectory() && !stat.isSymbolicLink()) await fs.unlink(at);
}

/** Below this size a file's holes are not worth a look (a few blocks at most). */
const SPARSE_MIN = 64 * 1024;

/** Whether a file copied with `flag` could lose holes: a clone keeps them, a kernel copy does not (see sparse-copy.ts). */
function mayBeSparse(item: ScanEntry, flag: number): boolean {
  return item.kind === 'file' && item.size >= SPARSE_MIN && flag !== fsSync.constants.COPYFILE_FICLONE;
}

/**
 * A copy made while the scan ran may differ from the scan where the original's folders changed
 * meanwhile: a file copied, then deleted before the scan reached its folder (the copy has it, the
 * scan does not), or a folder moved in after cp passed (the scan has it, the copy does not). Every
 * folder whose ctime is after `sinceMs` now (looked up again: the scan's own look can be older than
 * its reading of the folder) is compared with the copy. What the copy has beyond the scan and the
 * original no longer has is removed from the copy (a name the original still has was created
 * meanwhile and stays, showing as already applied). Returns the test for what the scan has but the
 * copy lacks, with everything below it: those stay out of the manifest, or the tool would seem to
 * have deleted them.
 */
export async function reconcileWithCopy(source: string, target: string, listing: ScanEntry[], sinceMs: number): Promise<(rel: string) => boolean> {
  const changed = new Set<string>();
  for (const dir of ['', ...listing.filter((e) => e.kind === 'dir').map((e) => e.rel)]) {
    const now = fsSync.lstatSync(inRoot(source, dir), { throwIfNoEntry: false });
    if (!now || now.ctimeMs > sinceMs) changed.add(dir);
  }
  for (const entry of listing) if (entry.kind === 'dir' && entry.ctimeMs > sinceMs) changed.add(entry.rel);
  const missing: string[] = [];
  if (changed.size > 0) {
    const scanned = new Map<string, Set<string>>([...changed].map((dir) => [dir, new Set<string>()]));
    for (const entry of listing) scanned.get(parentOf(entry.rel))?.add(entry.rel);
    for (const dir of changed) {
      const names = await fs.readdir(inRoot(target, dir), { encoding: 'buffer' }).catch(() => [] as Buffer[]);
      const inCopy = new Set(names.map((bytes) => (dir === '' ? decodeName(bytes) : `${dir}/${decodeName(bytes)}`)));
      for (const rel of inCopy) {
        if (scanned.get(dir)!.has(rel) || fsSync.lstatSync(inRoot(source, rel), { throwIfNoEntry: false })) continue;
        await fs.rm(inRoot(target, rel), { recursive: true, force: true });
      }
      for (const rel of scanned.get(dir)!) if (!inCopy.has(rel)) missing.push(rel);
    }
  }
  const exact = new Set(missing);
  const prefixes = missing.map((rel) => `${rel}/`);
  return (rel) => exact.has(rel) || prefixes.some((prefix) => rel.startsWith(prefix));
}

function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash === -1 ? '' : rel.slice(0, slash);
}

/** Whether files clone from one filesystem to another, by "<source dev>:<target dev>": a filesystem keeps its abilities. */
const cloneSupport = new Map<string, boolean>();

/**
 * True when the filesystem under `target` can clone `sample` (tried once per pair of filesystems,
 * on a scratch copy under a fresh name, then removed).
 */
async function canClone(sample: string | Buffer, target: string): Promise<boolean> {
  const sourceDev = fsSync.lstatSync(sample, { throwIfNoEntry: false })?.dev;
  const pair = `${sourceDev}:${fsSync.lstatSync(target).dev}`;
  const known = sourceDev === undefined ? undefined : cloneSupport.get(pair);
  if (known !== undefined) return known;
  const probe = path.join(target, `.bindery-clone-probe-${randomUUID()}`);
  try {
    await fs.copyFile(sample, probe, fsSync.constants.COPYFILE_FICLONE_FORCE | fsSync.constants.COPYFILE_EXCL);
    cloneSupport.set(pair, true);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (CLONE_UNSUPPORTED.has(code)) cloneSupport.set(pair, false);
    // ENOENT: the sample was deleted from the live original meanwhile; EAGAIN (OpenZFS 2.2): it was
    // written too recently to clone. Say "copy" this time rather than fail.
    if (CLONE_UNSUPPORTED.has(code) || code === 'ENOENT' || code === 'EAGAIN') return false;
    throw error;
  } finally {
    await fs.rm(probe, { force: true });
  }
}
