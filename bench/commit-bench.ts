/**
 * Journaled commit of 200 changed files (180 modified, 20 added, in 10 folders) against a plain
 * concurrent copy of the same files with an fsync each, at three file sizes. Target (issue 4):
 * commit within 2x of the copy. Each case runs in its own process so peak RSS is its own.
 * Usage: tsx bench/commit-bench.ts [--rounds N]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyTransaction, type TransactionOp } from '../main/sandbox/journal/index.ts';
import { forEachLimit } from '../main/sandbox/journal/pool.ts';

const FILES = 200;
const ADDED = 20;
const CONCURRENCY = 16;
const SIZES = [4 * 1024, 64 * 1024, 1024 * 1024];

interface Sample {
  timesMs: number[];
  peakRssMb: number;
}

function relPathOf(i: number): string {
  return `dir-${i % 10}/file-${i}.dat`;
}

function content(i: number, size: number, label: string): Buffer {
  const seed = createHash('sha256').update(`${label}-${i}`).digest();
  const buffer = Buffer.alloc(size);
  for (let offset = 0; offset < size; offset += seed.length) seed.copy(buffer, offset);
  return buffer;
}

/** Writes the sandbox (new versions) once and returns the ops and the old versions' writer. */
function prepare(root: string, size: number) {
  const sandbox = path.join(root, 'sandbox');
  const ops: TransactionOp[] = [];
  for (let i = 0; i < FILES; i++) {
    const source = path.join(sandbox, relPathOf(i));
    fs.mkdirSync(path.dirname(source), { recursive: true });
    fs.writeFileSync(source, content(i, size, 'new'));
    const added = i < ADDED;
    const oldSha = createHash('sha256').update(content(i, size, 'old')).digest('hex');
    ops.push({ relPath: relPathOf(i), kind: 'write', sourcePath: source, expect: added ? { kind: 'absent' } : { kind: 'file', sha256: oldSha } });
  }
  const makeTarget = (target: string) => {
    for (let i = 0; i < FILES; i++) {
      const file = path.join(target, relPathOf(i));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (i >= ADDED) fs.writeFileSync(file, content(i, size, 'old'));
    }
  };
  return { sandbox, ops, makeTarget };
}

async function plainCopy(sandbox: string, target: string): Promise<void> {
  const files = Array.from({ length: FILES }, (_, i) => relPathOf(i));
  await forEachLimit(files, CONCURRENCY, async (rel) => {
    const dest = path.join(target, rel);
    await fsp.copyFile(path.join(sandbox, rel), dest);
    const handle = await fsp.open(dest, 'r+');
    await handle.sync();
    await handle.close();
  });
}

/** One case in this process: prints a JSON sample. */
async function worker(kind: 'copy' | 'commit', size: number, runs: number): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-commit-bench-'));
  try {
    const { sandbox, ops, makeTarget } = prepare(root, size);
    const times: number[] = [];
    for (let run = 0; run <= runs; run++) {
      const target = path.join(root, `target-${run}`);
      makeTarget(target);
      const start = process.hrtime.bigint();
      if (kind === 'copy') await plainCopy(sandbox, target);
      else {
        const result = await applyTransaction({ journalDir: path.join(root, 'journal'), targetRoot: target, ops });
        if (result.kind !== 'applied') throw new Error(`bench commit drifted: ${JSON.stringify(result.paths.slice(0, 2))}`);
      }
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (run > 0) times.push(ms); // run 0 warms the caches and the code
    }
    const sample: Sample = { timesMs: times, peakRssMb: process.resourceUsage().maxRSS / 1024 };
    process.stdout.write(`${JSON.stringify(sample)}\n`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function measure(kind: 'copy' | 'commit', size: number, runs: number): Sample {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--import', 'tsx', self, '--worker', kind, String(size), String(runs)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${kind} worker failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as Sample;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Alternates copy and commit workers (each: a warm-up run, then `perWorker` timed runs), so both
 * see the same machine load; the medians are compared.
 */
function measureRow(size: number, rounds: number, perWorker: number) {
  const copy: number[] = [];
  const commit: number[] = [];
  let copyRss = 0;
  let commitRss = 0;
  for (let round = 0; round < rounds; round++) {
    const a = measure('copy', size, perWorker);
    const b = measure('commit', size, perWorker);
    copy.push(...a.timesMs);
    commit.push(...b.timesMs);
    copyRss = Math.max(copyRss, a.peakRssMb);
    commitRss = Math.max(commitRss, b.peakRssMb);
  }
  return { copyMs: median(copy), commitMs: median(commit), copyRss, commitRss };
}

function human(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;
}

const args = process.argv.slice(2);
const workerAt = args.indexOf('--worker');
if (workerAt >= 0) {
  await worker(args[workerAt + 1] as 'copy' | 'commit', Number(args[workerAt + 2]), Number(args[workerAt + 3]));
} else {
  const roundsAt = args.indexOf('--rounds');
  const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 5;
  const perWorker = 3;
  const rows = SIZES.map((size) => {
    const row = measureRow(size, rounds, perWorker);
    return {
      case: `${FILES} files x ${human(size)}`,
      'copy+fsync ms': row.copyMs.toFixed(1),
      'commit ms': row.commitMs.toFixed(1),
      ratio: (row.commitMs / row.copyMs).toFixed(2),
      target: '<= 2.00',
      'copy peak RSS MB': row.copyRss.toFixed(0),
      'commit peak RSS MB': row.commitRss.toFixed(0),
    };
  });
  console.log(
    `Commit of ${FILES} changed files vs plain copy + fsync (median of ${rounds * perWorker} runs each, interleaved; concurrency ${CONCURRENCY})`,
  );
  console.table(rows);
  const worst = Math.max(...rows.map((row) => Number(row.ratio)));
  console.log(worst <= 2 ? `OK: worst ratio ${worst.toFixed(2)} <= 2` : `OVER TARGET: worst ratio ${worst.toFixed(2)} > 2`);
  if (worst > 2) process.exitCode = 1;
}
