/**
 * Copies a directory tree the fast way: one scan (names and stats, see scan.ts), then concurrent
 * `copyFile` with COPYFILE_FICLONE (a reflink where the filesystem supports it: a probe says which happened),
 * symlinks recreated unchanged, timestamps and modes kept like `cp -a`. Returns the base
 * manifest of what was copied. Cancelling stops the copy; the caller removes the target.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import { CancelledError } from '../../shared/errors.ts';
import path from 'node:path';
import { copyWithCp } from './copy-native.ts';
import { copyOnWorkers, WORKER_THRESHOLD, type CopyJob } from './copy-workers.ts';
import { displayPath, encodeName, hasEscapes, inRoot } from './fs-path.ts';
import { isRacy, sha256File, type ManifestEntry } from './manifest.ts';
import type { CopyMethod } from './model.ts';
import { runPool } from './pool.ts';
import { scanTree } from './scan.ts';

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
  /** Sockets, devices and pipes, which are not copied. */
  skipped: string[];
}

const CLONE_UNSUPPORTED = new Set(['EOPNOTSUPP', 'ENOTSUP', 'EXDEV', 'ENOSYS', 'EINVAL', 'ENOTTY', 'EBADF', 'EPERM']);

/** Copies `source` into the new directory `target` (which must not exist). */
export async function copyTree(source: string, target: string, options: CopyTreeOptions = {}): Promise<CopyTreeResult> {
  const { signal, onProgress } = options;
  const check = (): void => {
    if (signal?.aborted) throw new CancelledError('Provisioning was cancelled; nothing was kept.');
  };
  onProgress?.({ phase: 'listing', done: 0, total: 0 });
  const listing = await scanTree(source, { signal });
  check();
  await fs.mkdir(target);
  const dirs = listing.filter((e) => e.kind === 'dir');
  for (const dir of dirs) await fs.mkdir(inRoot(target, dir.rel));
  const items = listing.filter((e) => e.kind === 'file' || e.kind === 'symlink');
  const skipped = listing.filter((e) => e.kind === 'other').map((e) => displayPath(e.rel));
  const copiedAt = Date.now();
  const firstFile = items.findIndex((item) => item.kind === 'file');
  const method: CopyMethod = firstFile >= 0 && (await probeClone(inRoot(source, items[firstFile]!.rel), inRoot(target, items[firstFile]!.rel))) ? 'clone' : 'copy';
  const flag = method === 'clone' ? fsSync.constants.COPYFILE_FICLONE : 0;
  let bytes = 0;
  let done = 0;
  const total = items.length;
  const step = Math.max(1, Math.floor(total / 100));
  const report = (count: number): void => {
    const before = done;
    done += count;
    if (Math.floor(before / step) !== Math.floor(done / step) || done === total) onProgress?.({ phase: 'copying', done, total });
  };
  // Plain files with plain names go to `cp` (Linux) or worker threads when there are many; the rest is copied here.
  const bulk = total >= WORKER_THRESHOLD ? items.filter((item, index) => item.kind === 'file' && index !== firstFile && !hasEscapes(item.rel)) : [];
  const inBulk = new Set(bulk);
  // Files deleted from a live original while it is copied are left out of the copy and the manifest alike.
  const vanished = new Set<string>();
  const copyOne = async (index: number): Promise<void> => {
    const item = items[index]!;
    if (inBulk.has(item)) return;
    const to = inRoot(target, item.rel);
    try {
      if (item.kind === 'symlink') await fs.symlink(encodeName(item.target ?? ''), to);
      else {
        if (index !== firstFile || method !== 'clone') await fs.copyFile(inRoot(source, item.rel), to, flag);
        await fs.utimes(to, item.mtimeMs / 1000, item.mtimeMs / 1000);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || fsSync.existsSync(inRoot(source, item.rel))) throw error;
      vanished.add(item.rel);
    }
    report(1);
  };
  await runPool(total, options.concurrency ?? 32, copyOne, check);
  if (bulk.length > 0) {
    const rels = bulk.map((item) => item.rel);
    let lost = await copyWithCp(source, target, rels, { signal, onDone: report });
    if (!lost) {
      const jobs: CopyJob[] = bulk.map((item) => [path.join(source, item.rel), path.join(target, item.rel), item.mtimeMs / 1000]);
      lost = new Set([...(await copyOnWorkers(jobs, flag, { signal, onDone: report }))].map((from) => path.relative(source, from).split(path.sep).join('/')));
    }
    for (const rel of lost) vanished.add(rel);
  }
  const entries: ManifestEntry[] = [];
  for (const item of items) {
    if (vanished.has(item.rel)) continue;
    const entry: ManifestEntry = { path: item.rel, type: item.kind === 'symlink' ? 'symlink' : 'file', size: item.size, mtimeMs: item.mtimeMs, mode: item.mode, ino: item.ino };
    if (item.kind === 'symlink') entry.target = item.target ?? '';
    else bytes += item.size;
    if (item.kind === 'file' && isRacy(item.mtimeMs, copiedAt)) {
      entry.sha256 = await sha256File(inRoot(target, item.rel), item.size);
      entry.racy = true;
    }
    entries.push(entry);
  }
  // Directory modes last: a read-only source directory must not block copying into it.
  for (let i = dirs.length - 1; i >= 0; i--) await fs.chmod(inRoot(target, dirs[i]!.rel), dirs[i]!.mode);
  return { entries, method, files: total, bytes, skipped };
}

/** Copies one file with a forced clone: true when the filesystem did it, false when it cannot clone. */
async function probeClone(from: string | Buffer, to: string | Buffer): Promise<boolean> {
  try {
    await fs.copyFile(from, to, fsSync.constants.COPYFILE_FICLONE_FORCE);
    return true;
  } catch (error) {
    if (CLONE_UNSUPPORTED.has((error as NodeJS.ErrnoException).code ?? '')) return false;
    throw error;
  }
}
