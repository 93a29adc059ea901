/**
 * The fastest copy on Linux: GNU `cp -a --reflink=auto`, the very tool the benchmark compares
 * with, over groups of top-level entries (balanced by the file counts the scan already has), a
 * few at a time, with progress per group and cancellation by killing the running groups. Null
 * when GNU cp is not there, so the caller copies file by file instead.
 */
import { execFile } from 'node:child_process';
import fsSync from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CancelledError } from '../../shared/errors.ts';
import { hasEscapes } from './fs-path.ts';
import { runPool } from './pool.ts';
import type { ScanEntry } from './scan.ts';

let gnuCp: boolean | undefined;

async function hasGnuCp(): Promise<boolean> {
  if (gnuCp !== undefined) return gnuCp;
  if (process.platform !== 'linux') return (gnuCp = false);
  gnuCp = await new Promise<boolean>((resolve) => {
    execFile('cp', ['--version'], (error, stdout) => resolve(!error && String(stdout).includes('GNU coreutils')));
  });
  return gnuCp;
}

function lstatQuiet(file: string): boolean {
  return fsSync.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
}

/**
 * Copies every top-level entry of `source` into the existing, empty `target` with `cp -a`.
 * Returns the files of the scan that vanished from the source meanwhile, or null when this fast
 * path does not apply (no GNU cp, or top-level names that are not UTF-8).
 */
export async function copySubtreesWithCp(
  source: string,
  target: string,
  listing: ScanEntry[],
  options: { signal?: AbortSignal; onDone?: (count: number) => void } = {},
): Promise<Set<string> | null> {
  if (!(await hasGnuCp())) return null;
  const files = new Map<string, string[]>();
  for (const entry of listing) {
    const slash = entry.rel.indexOf('/');
    const top = slash === -1 ? entry.rel : entry.rel.slice(0, slash);
    if (!files.has(top)) files.set(top, []);
    if (entry.kind === 'file' || entry.kind === 'symlink') files.get(top)!.push(entry.rel);
  }
  if ([...files.keys()].some(hasEscapes)) return null;
  const parallel = Math.max(1, Math.min(os.availableParallelism(), 4));
  const groups = balance([...files].map(([name, rels]) => ({ name, rels })), parallel * 4);
  const vanished = new Set<string>();
  await runPool(groups.length, parallel, (index) => {
    const group = groups[index]!;
    return new Promise<void>((resolve, reject) => {
      execFile('cp', ['-a', '--reflink=auto', '-t', target, '--', ...group.names], { cwd: source, signal: options.signal, maxBuffer: 1 << 24 }, (error, _stdout, stderr) => {
        if (options.signal?.aborted) return reject(new CancelledError('Provisioning was cancelled; nothing was kept.'));
        if (error) {
          // cp goes on after a file it cannot copy; the group fails only for files that are still there.
          const missing = group.rels.filter((rel) => !lstatQuiet(path.join(target, rel)));
          const lost = missing.filter((rel) => !lstatQuiet(path.join(source, rel)));
          if (lost.length < missing.length || missing.length === 0) return reject(new Error(`cp failed while copying into ${target}: ${String(stderr).trim() || error.message}`));
          for (const rel of lost) vanished.add(rel);
        }
        options.onDone?.(group.rels.length);
        resolve();
      });
    });
  });
  return vanished;
}

/** Spreads units over at most `count` groups, largest first onto the lightest group. */
function balance(units: Array<{ name: string; rels: string[] }>, count: number): Array<{ names: string[]; rels: string[] }> {
  const groups = Array.from({ length: Math.min(count, units.length) }, () => ({ names: [] as string[], rels: [] as string[] }));
  for (const unit of [...units].sort((a, b) => b.rels.length - a.rels.length)) {
    const lightest = groups.reduce((best, group) => (group.rels.length < best.rels.length ? group : best));
    lightest.names.push(unit.name);
    for (const rel of unit.rels) lightest.rels.push(rel);
  }
  return groups;
}
