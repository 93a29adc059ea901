/**
 * Journaled commit of 200 changed files (180 modified, 20 added, in 10 folders) against a plain
 * concurrent copy of the same files with an fsync of each file and folder, at three file sizes.
 * Target (issue 4): commit within 2x of the copy. Timings rotate the cases run by run in one
 * process (same load for each), in orders that have each case come right after each other case
 * equally often (see ORDERS); peak RSS comes from a separate process per case.
 * Usage: tsx bench/commit-bench.ts [--runs N, rounded up to a multiple of 6; default 18] [--size <bytes; default all three>] [--dir <folder on the filesystem to measure; default the temp folder>]
 *
 * A third, untargeted case shows the floor of any crash-safe commit here: the same files written
 * to new temp files beside their targets, flushed, and renamed over them (what the journal does
 * per file, without journal, checks or backups). New files cost more than overwritten ones where
 * the filesystem is slow to find free inodes, which the plain copy mostly avoids.
 *
 * The ops carry what the engine passes: the hash and stat of each original and sandbox file as
 * change detection saw them. The targets of a batch of runs are written, flushed, and left alone
 * for a few seconds before they are timed, as originals are long unchanged when people commit (a
 * file changed within the last seconds is hashed again, see SeenStat).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { applyTransaction, type SeenStat, type TransactionOp } from '../main/sandbox/commit/journal/index.ts';
import { settleCopy, writeCopy } from '../main/sandbox/commit/journal/durable-copy.ts';
import { forEachLimit } from '../main/sandbox/fs/pool.ts';

const FILES = 200;
const ADDED = 20;
const CONCURRENCY = 16;
const SIZES = [4 * 1024, 64 * 1024, 1024 * 1024];
/** Untimed runs first in each worker: the JIT and the page cache warm up, as in a running app. */
const WARM_UP = 3;
/**
 * The six orders of the three cases, one per run in turn. With targets made every BATCH runs and
 * the timing starting after WARM_UP runs, every BALANCED_RUNS timed runs have each case come first
 * after the pause as often as the others, and right after each other case as often as after any
 * other: a case can slow the next one down with the writeback it leaves, and in the fixed cycle
 * used before, the commit always came right after the copy (one commit code timed in two places
 * of that cycle measured 2.1 ms apart one way round and 1.1 ms the other).
 */
const ORDERS: ReadonlyArray<readonly Case[]> = [
  ['copy', 'commit', 'atomic'],
  ['atomic', 'commit', 'copy'],
  ['commit', 'atomic', 'copy'],
  ['copy', 'atomic', 'commit'],
  ['atomic', 'copy', 'commit'],
  ['commit', 'copy', 'atomic'],
];
const BALANCED_RUNS = ORDERS.length;
/** Runs whose targets are made together, then left alone long enough not to be racy (see ORDERS). */
const BATCH = 2;
const SETTLE_MS = 3500;
/** A floor this many times the copy means the filesystem itself is slow to create files right now. */
const SLOW_FLOOR = 1.5;

const CASES = ['copy', 'commit', 'atomic'] as const;
type Case = (typeof CASES)[number];

interface Sample {
  ms: Record<Case, number[]>;
  /** CPU time (user + system, all threads) per run: steadier than wall time on a shared machine. */
  cpuMs: Record<Case, number[]>;
  /** Median milliseconds per commit phase. */
  phases: Record<string, number>;
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

function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Writes the sandbox (new versions) once; returns the target writer and the op builder. */
function prepare(root: string, size: number) {
  const sandbox = path.join(root, 'sandbox');
  for (let i = 0; i < FILES; i++) {
    const source = path.join(sandbox, relPathOf(i));
    fs.mkdirSync(path.dirname(source), { recursive: true });
    fs.writeFileSync(source, content(i, size, 'new'));
  }
  const newSha = Array.from({ length: FILES }, (_, i) => hashOf(content(i, size, 'new')));
  const oldSha = Array.from({ length: FILES }, (_, i) => hashOf(content(i, size, 'old')));
  const makeTarget = (target: string) => {
    for (let i = 0; i < FILES; i++) {
      const file = path.join(target, relPathOf(i));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (i >= ADDED) fs.writeFileSync(file, content(i, size, 'old'));
    }
  };
  /** The ops change detection would hand over for `target`, with the stats it saw right after hashing. */
  const opsFor = (target: string): TransactionOp[] => {
    const hashedAtMs = Date.now();
    const seen = (file: string): SeenStat => {
      const stat = fs.lstatSync(file);
      return { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, hashedAtMs };
    };
    return Array.from({ length: FILES }, (_, i): TransactionOp => {
      const sourcePath = path.join(sandbox, relPathOf(i));
      const expect = i < ADDED ? { kind: 'absent' as const } : { kind: 'file' as const, sha256: oldSha[i]!, seen: seen(path.join(target, relPathOf(i))) };
      return { relPath: relPathOf(i), kind: 'write', sourcePath, sourceContent: { sha256: newSha[i]!, seen: seen(sourcePath) }, expect };
    });
  };
  return { sandbox, makeTarget, opsFor };
}

/** Flushes a file or folder. */
async function fsyncPath(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r');
  await handle.sync();
  await handle.close();
}

/** Flushes the folders of every file, so new names persist. */
async function fsyncFolders(target: string): Promise<void> {
  const files = Array.from({ length: FILES }, (_, i) => relPathOf(i));
  await Promise.all([...new Set(files.map((rel) => path.dirname(path.join(target, rel))))].map(fsyncPath));
}

/** The baseline: a durable plain copy (each file fsync'd, then each folder). */
async function plainCopy(sandbox: string, target: string): Promise<void> {
  await forEachLimit(Array.from({ length: FILES }, (_, i) => relPathOf(i)), CONCURRENCY, async (rel) => {
    const dest = path.join(target, rel);
    await fsp.copyFile(path.join(sandbox, rel), dest);
    await fsyncPath(dest);
  });
  await fsyncFolders(target);
}

/**
 * The floor of a crash-safe commit: each old file hard-linked aside (as the journal's backups are,
 * which also keeps renames from freeing inodes), the new one written to a temp file beside it
 * with the journal's own copy (writeCopy, which lets the filesystem write all of them out
 * together), every temp fsync'd, then renamed over its target.
 */
async function atomicCopy(sandbox: string, target: string): Promise<void> {
  const aside = `${target}-old`;
  fs.mkdirSync(aside);
  const files = Array.from({ length: FILES }, (_, i) => relPathOf(i));
  const clones = { tryClone: true };
  await forEachLimit(files, CONCURRENCY, async (rel, i) => {
    const dest = path.join(target, rel);
    if (i >= ADDED) fs.linkSync(dest, path.join(aside, String(i)));
    // No journal describes the copy, so it needs no hash: the vouch stands in for one.
    await writeCopy(path.join(sandbox, rel), `${dest}.tmp`, 0o644, () => '', clones);
  });
  await forEachLimit(files, CONCURRENCY, (rel) => settleCopy(path.join(target, `${rel}.tmp`), 0o644));
  for (const rel of files) fs.renameSync(path.join(target, `${rel}.tmp`), path.join(target, rel));
  await fsyncFolders(target);
}

type Kind = Case | 'all';
type PhaseTimes = Record<string, number[]>;
type Setup = ReturnType<typeof prepare>;

function targetOf(root: string, kind: Case, run: number): string {
  return path.join(root, `${kind}-${run}`);
}

/** Runs the commit of `ops`, adding the time of each phase (from onProgress) to `phases`. */
async function commit(root: string, target: string, ops: TransactionOp[], phases: PhaseTimes): Promise<void> {
  let phase = '';
  let since = process.hrtime.bigint();
  const enter = (next: string) => {
    const now = process.hrtime.bigint();
    if (phase) (phases[phase] ??= []).push(Number(now - since) / 1e6);
    phase = next;
    since = now;
  };
  const result = await applyTransaction({
    journalDir: path.join(root, 'journal'),
    targetRoot: target,
    ops,
    onProgress: (progress) => progress.phase !== phase && enter(progress.phase),
  });
  enter('');
  if (result.kind !== 'applied') throw new Error(`bench commit drifted: ${JSON.stringify(result.paths.slice(0, 2))}`);
}

/** One timed run of `kind` on its prepared target; returns wall and CPU milliseconds. */
async function timeOne(kind: Case, root: string, run: number, setup: Setup, phases: PhaseTimes): Promise<{ ms: number; cpuMs: number }> {
  const target = targetOf(root, kind, run);
  const ops = kind === 'commit' ? setup.opsFor(target) : [];
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  if (kind === 'copy') await plainCopy(setup.sandbox, target);
  else if (kind === 'atomic') await atomicCopy(setup.sandbox, target);
  else await commit(root, target, ops, phases);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  emptyFiles(target);
  if (kind === 'commit') emptyFiles(path.join(root, 'journal'));
  if (kind === 'atomic') emptyFiles(`${target}-old`);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/**
 * Frees the space of a finished run without unlinking anything: ext4 without a journal scans past
 * recently freed inodes at every later create, which would charge the bench's own clean-up to
 * the cases that create files (commit, atomic) far more than to the copy, which overwrites in
 * place. Everything is removed once all workers are done.
 */
function emptyFiles(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) fs.truncateSync(path.join(entry.parentPath, entry.name), 0);
  }
}

/** Writes the targets of runs `from` to `to` (exclusive), flushes them, and waits until they are no longer racy. */
async function makeTargets(root: string, setup: Setup, cases: readonly Case[], from: number, to: number): Promise<void> {
  for (let run = from; run < to; run++) for (const kind of cases) setup.makeTarget(targetOf(root, kind, run));
  spawnSync('sync');
  await sleep(SETTLE_MS);
}

/**
 * One worker process: `all` rotates the cases run by run (so each sees the same machine load) for
 * the timings; one case alone measures its peak RSS. Prints JSON.
 */
async function worker(kind: Kind, size: number, runs: number, benchDir: string): Promise<void> {
  const root = fs.mkdtempSync(path.join(benchDir, `${kind}-`));
  const setup = prepare(root, size);
  const sample: Sample = { ms: { copy: [], commit: [], atomic: [] }, cpuMs: { copy: [], commit: [], atomic: [] }, phases: {}, peakRssMb: 0 };
  const phases: PhaseTimes = {};
  const cases: readonly Case[] = kind === 'all' ? CASES : [kind];
  const total = WARM_UP + runs;
  for (let run = 0; run < total; run++) {
    if (run % BATCH === 0) await makeTargets(root, setup, cases, run, Math.min(total, run + BATCH));
    for (let k = 0; k < cases.length; k++) {
      const each = orderOf(cases, run)[k]!;
      const { ms, cpuMs } = await timeOne(each, root, run, setup, run >= WARM_UP ? phases : {});
      if (run < WARM_UP) continue;
      sample.ms[each].push(ms);
      sample.cpuMs[each].push(cpuMs);
    }
  }
  sample.phases = Object.fromEntries(Object.entries(phases).map(([name, values]) => [name, median(values)]));
  sample.peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

/** The cases of run `run` in their order (see ORDERS); a worker timing one case alone just runs it. */
function orderOf(cases: readonly Case[], run: number): readonly Case[] {
  return cases.length === 1 ? cases : ORDERS[run % ORDERS.length]!;
}

function spawnWorker(kind: Kind, size: number, runs: number, benchDir: string): Sample {
  const self = fileURLToPath(import.meta.url);
  const args = ['--import', 'tsx', self, '--worker', kind, String(size), String(runs), benchDir];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${kind} worker failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as Sample;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Timings from one interleaved worker; peak RSS from one worker per case. */
function measureRow(size: number, runs: number, benchDir: string) {
  const timed = spawnWorker('all', size, runs, benchDir);
  const ratios = timed.ms.commit.map((ms, i) => ms / timed.ms.copy[i]!);
  return {
    phases: timed.phases,
    copyMs: median(timed.ms.copy),
    commitMs: median(timed.ms.commit),
    atomicMs: median(timed.ms.atomic),
    copyCpuMs: median(timed.cpuMs.copy),
    commitCpuMs: median(timed.cpuMs.commit),
    ratio: median(ratios),
    copyRss: spawnWorker('copy', size, 3, benchDir).peakRssMb,
    commitRss: spawnWorker('commit', size, 3, benchDir).peakRssMb,
  };
}

function human(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;
}

const args = process.argv.slice(2);
const workerAt = args.indexOf('--worker');
if (workerAt >= 0) {
  await worker(args[workerAt + 1] as Kind, Number(args[workerAt + 2]), Number(args[workerAt + 3]), args[workerAt + 4]!);
} else {
  const runsAt = args.indexOf('--runs');
  // Whole groups of BALANCED_RUNS, so each case follows each other one as often (see ORDERS).
  const runs = Math.ceil((runsAt >= 0 ? Number(args[runsAt + 1]) : 18) / BALANCED_RUNS) * BALANCED_RUNS;
  const breakdown: Array<Record<string, string>> = [];
  const dirAt = args.indexOf('--dir');
  const benchDir = fs.mkdtempSync(path.join(dirAt >= 0 ? args[dirAt + 1]! : os.tmpdir(), 'bindery-commit-bench-'));
  process.on('exit', () => fs.rmSync(benchDir, { recursive: true, force: true }));
  const sizeAt = args.indexOf('--size');
  const sizes = sizeAt >= 0 ? [Number(args[sizeAt + 1])] : SIZES;
  const floors: string[] = [];
  const rows = sizes.map((size) => {
    const row = measureRow(size, runs, benchDir);
    if (row.atomicMs > SLOW_FLOOR * row.copyMs) floors.push(`${(row.atomicMs / row.copyMs).toFixed(1)}x at ${human(size)}`);
    breakdown.push({ case: human(size), ...Object.fromEntries(Object.entries(row.phases).map(([name, ms]) => [name, ms.toFixed(1)])) });
    return {
      case: `${FILES} files x ${human(size)}`,
      'copy+fsync ms': row.copyMs.toFixed(1),
      'commit ms': row.commitMs.toFixed(1),
      'temp+rename ms': row.atomicMs.toFixed(1),
      'copy cpu ms': row.copyCpuMs.toFixed(1),
      'commit cpu ms': row.commitCpuMs.toFixed(1),
      ratio: row.ratio.toFixed(2),
      target: '<= 2.00',
      'copy peak RSS MB': row.copyRss.toFixed(0),
      'commit peak RSS MB': row.commitRss.toFixed(0),
    };
  });
  console.log(
    `Commit of ${FILES} changed files in ${benchDir} vs durable plain copy, and the temp+rename floor (medians of ${runs} interleaved runs after ${WARM_UP} warm-ups; ` +
      `ratio = median of per-pair ratios; concurrency ${CONCURRENCY})`,
  );
  console.table(rows);
  console.log('Where the commit time goes (median ms per phase; checking includes writing the journal, whose first flush runs meanwhile; staging includes the backups):');
  console.table(breakdown);
  if (floors.length > 0) {
    console.log(
      `Note: creating files is slow on this filesystem now: the temp+rename floor alone, which any crash-safe commit pays, took ${floors.join(', ')} the copy. ` +
        'at each create, ext4 without a journal looks past every inode freed in the last minutes, so a run soon after a test suite or another benchmark ' +
        'on the same filesystem measures that: rerun a few minutes later, or pass --dir.',
    );
  }
  const worst = Math.max(...rows.map((row) => Number(row.ratio)));
  console.log(worst <= 2 ? `OK: worst ratio ${worst.toFixed(2)} <= 2` : `OVER TARGET: worst ratio ${worst.toFixed(2)} > 2`);
  if (worst > 2) process.exitCode = 1;
}
