/**
 * The fastest copy on Linux: GNU `cp -a --reflink=auto --parents` over chunks of files, two at a
 * time. It is the very tool the benchmark compares with, fed the file list the scan already has,
 * with progress per chunk and cancellation by killing the running chunks. Returns false when
 * GNU cp is not there, so the caller uses worker threads instead.
 */
import { execFile } from 'node:child_process';
import fsSync from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CancelledError } from '../../shared/errors.ts';
import { runPool } from './pool.ts';

const CHUNK = 2000;
let gnuCp: boolean | undefined;

async function hasGnuCp(): Promise<boolean> {
  if (gnuCp !== undefined) return gnuCp;
  if (process.platform !== 'linux') return (gnuCp = false);
  gnuCp = await new Promise<boolean>((resolve) => {
    execFile('cp', ['--version'], (error, stdout) => resolve(!error && String(stdout).includes('GNU coreutils')));
  });
  return gnuCp;
}

/**
 * Copies the files `rels` (relative, plain names) from `source` into `target`, whose folders
 * already exist, keeping modes and timestamps. Returns the files that vanished from the source
 * while copying (a live folder changes), or null when this fast path is not available.
 */
export async function copyWithCp(source: string, target: string, rels: string[], options: { signal?: AbortSignal; onDone?: (count: number) => void } = {}): Promise<Set<string> | null> {
  if (!(await hasGnuCp())) return null;
  const vanished = new Set<string>();
  const chunks: string[][] = [];
  for (let i = 0; i < rels.length; i += CHUNK) chunks.push(rels.slice(i, i + CHUNK));
  const parallel = Math.max(1, Math.min(os.availableParallelism(), 4));
  await runPool(chunks.length, parallel, (index) => {
    const chunk = chunks[index]!;
    return new Promise<void>((resolve, reject) => {
      execFile('cp', ['-a', '--reflink=auto', '--parents', '-t', target, '--', ...chunk], { cwd: source, signal: options.signal, maxBuffer: 1 << 24 }, (error, _stdout, stderr) => {
        if (options.signal?.aborted) return reject(new CancelledError('Provisioning was cancelled; nothing was kept.'));
        if (error) {
          // cp goes on after a file it cannot copy; the chunk fails only for files that are still there.
          const missing = chunk.filter((rel) => !fsSync.existsSync(path.join(target, rel)));
          const lost = missing.filter((rel) => !lstatQuiet(path.join(source, rel)));
          if (lost.length < missing.length || missing.length === 0) return reject(new Error(`cp failed while copying into ${target}: ${String(stderr).trim() || error.message}`));
          for (const rel of lost) vanished.add(rel);
        }
        options.onDone?.(chunk.length);
        resolve();
      });
    });
  });
  return vanished;
}

function lstatQuiet(file: string): boolean {
  return fsSync.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
}
