/**
 * The fastest copy on Linux: GNU `cp -a --reflink=auto`, the very tool the benchmark compares
 * with, over groups of top-level entries, a few at a time (one for a small tree). It starts at
 * once, while the scan of the source (whose stats become the manifest) runs beside it: groups are
 * balanced by a shallow count of each top-level folder, progress is reported per group in the
 * scan's file counts, and cancelling kills the running groups. Null when GNU cp is not there or a
 * top-level name is not UTF-8, so the caller copies file by file instead.
 */
import { execFile } from 'node:child_process';
import fsSync from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CancelledError } from '../../../shared/errors.ts';
import { inRoot } from '../fs/index.ts';
import { balance, forEachLimit, isGnuTool } from '../fs/index.ts';
import type { ScanEntry } from '../fs/index.ts';

function hasGnuCp(): Promise<boolean> {
  return isGnuTool('cp', 'GNU coreutils');
}

function lstatQuiet(file: string | Buffer): boolean {
  return fsSync.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
}

/** Options of `copyWithCp`. */
export interface CpOptions {
  signal?: AbortSignal;
  /** Files and symlinks copied so far, as the scan counts them (called once per group). */
  onDone?: (count: number) => void;
}

/** A top-level entry of a tree and a cheap guess of its size (1 + what a folder holds directly). */
export interface TopLevelUnit {
  name: string;
  weight: number;
}

/** Below this total weight one `cp` does it all: each process costs a fork of this one. */
const ONE_GROUP_BELOW = 64;

/** The top-level entries of `source` with their weights (a few synchronous readdirs: microseconds each); null when a name is not UTF-8 (it could not be passed to cp). */
export function topLevelUnits(source: string): TopLevelUnit[] | null {
  const top = fsSync.readdirSync(source, { withFileTypes: true });
  if (top.some((entry) => entry.name.includes('\uFFFD'))) return null;
  return top.map((entry) => ({ name: entry.name, weight: entry.isDirectory() ? shallowCount(path.join(source, entry.name)) : 1 }));
}

/**
 * Copies the top-level entries `units` of `source` into the existing, empty `target` with
 * `cp -a`, calling `scan` (the scan of `source`, memoized by the caller) once the first `cp`
 * processes run, so both work at once. Returns the files of the scan that vanished from the
 * source meanwhile, or null when GNU cp is not there.
 */
export async function copyWithCp(source: string, target: string, units: TopLevelUnit[], scan: () => Promise<ScanEntry[]>, options: CpOptions = {}): Promise<Set<string> | null> {
  if (!(await hasGnuCp())) return null;
  const parallel = Math.max(1, Math.min(os.availableParallelism(), 4));
  const groups = balance(units, units.reduce((sum, unit) => sum + unit.weight, 0) < ONE_GROUP_BELOW ? 1 : parallel * 4);
  let filesUnder: Promise<Map<string, string[]>> | undefined;
  const scanned = (): Promise<Map<string, string[]>> => (filesUnder ??= scan().then(filesByTopLevel));
  const filesOf = (names: string[], byTop: Map<string, string[]>): string[] => names.flatMap((name) => byTop.get(name) ?? []);
  const failed: Array<{ names: string[]; message: string }> = [];
  // A group that finishes takes the next one at once; its progress is counted when the scan is in.
  const copying = forEachLimit(groups, parallel, async (names) => {
    const failure = await runCp(source, target, names, options.signal);
    if (failure !== null) failed.push({ names, message: failure });
    else void scanned().then((byTop) => options.onDone?.(filesOf(names, byTop).length), () => undefined);
  });
  // The first groups' processes run by now: the scan starts beside them (a failed scan surfaces below).
  scanned().catch(() => undefined);
  await copying;
  const byTop = await scanned();
  const vanished = new Set<string>();
  for (const { names, message } of failed) {
    // cp goes on after a file it cannot copy; the group fails only for files that are still there.
    const rels = filesOf(names, byTop);
    const missing = rels.filter((rel) => !lstatQuiet(inRoot(target, rel)));
    const lost = missing.filter((rel) => !lstatQuiet(inRoot(source, rel)));
    // Only "No such file" errors and no file the scan saw is missing: cp met files deleted before the scan came by.
    const onlyVanished = message.split('\n').every((line) => line.endsWith('No such file or directory'));
    if (lost.length < missing.length || (missing.length === 0 && !onlyVanished)) throw new Error(`cp failed while copying into ${target}: ${message}`);
    for (const rel of lost) vanished.add(rel);
    options.onDone?.(rels.length);
  }
  return vanished;
}

/** Runs one `cp -a`; resolves with its error text, or null when it succeeded. */
function runCp(source: string, target: string, names: string[], signal: AbortSignal | undefined): Promise<string | null> {
  return new Promise((resolve, reject) => {
    execFile('cp', ['-a', '--reflink=auto', '-t', target, '--', ...names], { cwd: source, env: { ...process.env, LC_ALL: 'C' }, signal, maxBuffer: 1 << 24 }, (error, _stdout, stderr) => {
      if (signal?.aborted) return reject(new CancelledError('Provisioning was cancelled; nothing was kept.'));
      resolve(error ? String(stderr).trim() || error.message : null);
    });
  });
}

/** How many entries a folder holds directly: a cheap stand-in for its size while the scan runs. */
function shallowCount(dir: string): number {
  try {
    return 1 + fsSync.readdirSync(dir).length;
  } catch {
    return 1;
  }
}

/** The scanned files and symlinks, by the top-level entry they are under. */
function filesByTopLevel(listing: ScanEntry[]): Map<string, string[]> {
  const files = new Map<string, string[]>();
  for (const entry of listing) {
    if (entry.kind !== 'file' && entry.kind !== 'symlink') continue;
    const slash = entry.rel.indexOf('/');
    const top = slash === -1 ? entry.rel : entry.rel.slice(0, slash);
    const rels = files.get(top);
    if (rels) rels.push(entry.rel);
    else files.set(top, [entry.rel]);
  }
  return files;
}
