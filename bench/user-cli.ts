/**
 * The CLI at the user's level (issue 22): `bindery plans changes`, `plans diff` (whole plan and
 * `--path`) and `plans commit` of the commit set, each as a whole process, paired in the same run
 * with the raw tool doing the same in the sandbox (`git status`, `git diff`, `cp` + `sync` of the
 * same files) and a bare `node -e 0`. Goal: each within 2x of (raw tool + node start).
 * On generated real-shaped trees: small (200 files), medium (9,000) and large (38,000).
 * Usage: tsx bench/user-cli.ts [--sizes small,medium,large|N,...] [--runs 5] [--changes 32]
 *   [--timeout 120] [--dir DIR] [--no-build] [--cli-dir out/cli] [--quick: small only, 1 run]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareCli, provisionPlan, type CliBuild } from './fixtures/bindery-cli.ts';
import { flag, formatMs, machine, median, numberFlag, sized, table, writeResults } from './fixtures/report.ts';
import { GIT_ENV, generateRepo, SPECIAL } from './fixtures/real-tree.ts';
import { editCommitSet, editSandbox } from './fixtures/sandbox-edits.ts';

const SIZES: Record<string, number> = { small: 200, medium: 9_000, large: 38_000 };
const GOAL = 2;

const args = process.argv.slice(2);
const runs = Math.round(numberFlag(args, '--runs', sized(args, 5, 1)));
const changes = Math.round(numberFlag(args, '--changes', 32));
const timeoutMs = numberFlag(args, '--timeout', sized(args, 120, 60)) * 1000;
const sizes = flag(args, '--sizes', sized(args, 'small,medium,large', 'small')).split(',').map((name) => ({ label: name, files: SIZES[name] ?? Number(name) }));
for (const size of sizes) if (!(size.files > 0)) throw new Error(`--sizes takes small, medium, large or file counts, e.g. --sizes small,9000, not "${size.label}"`);

/** One timed process: wall and CPU milliseconds, or timedOut. */
interface Sample {
  wall: number;
  cpu: number | null;
  timedOut: boolean;
}

/** A command line and where it runs. */
interface Command {
  argv: string[];
  cwd?: string;
}

/** CPU time (user + system) of the waited-for children so far, from /proc (10 ms ticks), or null off Linux. */
function childCpuMs(): number | null {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** Runs a whole process, its output read through a pipe as a pager or an agent would; throws when it fails. */
function timed(command: Command): Sample {
  const cpuBefore = childCpuMs();
  const started = process.hrtime.bigint();
  const run = spawnSync(command.argv[0]!, command.argv.slice(1), { cwd: command.cwd, env: GIT_ENV, maxBuffer: 1 << 30, timeout: timeoutMs, killSignal: 'SIGKILL' });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuAfter = childCpuMs();
  const timedOut = run.error !== undefined && (run.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
  if (!timedOut && run.status !== 0) throw new Error(`${command.argv.join(' ')} exited with ${run.status}: ${String(run.stderr)}`);
  if (String(run.stderr).includes('through tsx')) throw new Error(`The CLI ran the sources, not the bundle: ${String(run.stderr).trim()}`);
  return { wall, cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, timedOut };
}

/** A Bindery command paired with the raw tool doing the same; `before` runs untimed ahead of each pair. */
interface Case {
  name: string;
  raw: string;
  bindery: Command;
  tool: Command;
  before?: (round: number) => void;
}

/** What one case measured. */
interface CaseResult {
  name: string;
  raw: string;
  bindery: Sample[];
  tool: Sample[];
  binderyMs: number | null;
  toolMs: number | null;
  ratio: number | null;
  timedOut: boolean;
}

function cases(cli: CliBuild, planId: string, dataDir: string, sandbox: string, mirror: string, quiet: string, commitSet: string[], relayout: (round: number) => void): Case[] {
  const bindery = (...rest: string[]): Command => ({ argv: [process.execPath, cli.entry, '--data-dir', dataDir, ...rest] });
  const git = (...rest: string[]): Command => ({ argv: ['git', ...rest], cwd: sandbox });
  return [
    { name: 'plans changes', raw: 'git status', bindery: bindery('plans', 'changes', planId), tool: git('status') },
    { name: 'plans diff (whole plan)', raw: 'git diff', bindery: bindery('plans', 'diff', planId), tool: git('diff') },
    { name: `plans diff --path (${quiet.split('/').pop()})`, raw: 'git diff -- path', bindery: bindery('plans', 'diff', planId, '--path', quiet), tool: git('diff', '--', quiet) },
    {
      name: 'plans diff --path (reformatted 3,900 lines)',
      raw: 'git diff -- path',
      bindery: bindery('plans', 'diff', planId, '--path', SPECIAL.reformatted),
      tool: git('diff', '--', SPECIAL.reformatted),
    },
    {
      name: `plans commit (${commitSet.length} files)`,
      raw: `cp + sync of ${commitSet.length} files`,
      bindery: bindery('plans', 'commit', planId, ...commitSet.flatMap((file) => ['--path', file])),
      // One shell, as a person would type it: copy the files into the mirror, then flush them.
      tool: { argv: ['sh', '-c', 'cp --parents -- "$@" "$0" && cd "$0" && sync -- "$@"', mirror, ...commitSet], cwd: sandbox },
      before: relayout,
    },
  ];
}

/** Measures every case on a tree of `files` files; returns the baseline and the results. */
function measure(cli: CliBuild, label: string, files: number, dir: string): { label: string; files: number; changes: number; nodeMs: number | null; results: CaseResult[] } {
  const work = fs.realpathSync(fs.mkdtempSync(path.join(dir, `bindery-user-cli-${label}-`)));
  try {
    const started = Date.now();
    const layout = generateRepo(path.join(work, 'app'), { files });
    const plan = provisionPlan(cli, work, layout.root);
    const edits = editSandbox(plan.sandbox, layout, { changes, review: false });
    const mirror = path.join(work, 'mirror');
    for (const file of layout.commitSet) fs.cpSync(path.join(layout.root, file), path.join(mirror, file));
    console.log(`[${label}] ${layout.files.length} files, ${edits.total} changes (M ${edits.modified.length}, A ${edits.added.length}, D ${edits.deleted.length}, R ${edits.renamed.length}); set up in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const list = cases(cli, plan.planId, plan.dataDir, plan.sandbox, mirror, edits.quiet, layout.commitSet, (round) => editCommitSet(plan.sandbox, layout, round + 1));
    const node: Sample[] = [];
    const results: CaseResult[] = list.map((entry) => ({ name: entry.name, raw: entry.raw, bindery: [], tool: [], binderyMs: null, toolMs: null, ratio: null, timedOut: false }));
    // Round -1 is untimed: the page cache holds both sides' files and the CLI's code cache is made.
    for (let round = -1; round < runs; round++) {
      const bare = timed({ argv: [process.execPath, '-e', '0'] });
      if (round >= 0) node.push(bare);
      list.forEach((entry, index) => {
        const result = results[index]!;
        entry.before?.(round);
        // Pairs alternate who goes first: the second meets the writeback and cache the first left.
        const order = round % 2 === 0 ? (['tool', 'bindery'] as const) : (['bindery', 'tool'] as const);
        for (const side of order) {
          if (side === 'bindery' && result.timedOut) continue;
          const sample = timed(entry[side]);
          if (sample.timedOut) result.timedOut = true;
          if (round >= 0 && !sample.timedOut) result[side].push(sample);
        }
      });
    }
    const nodeMs = median(node.map((sample) => sample.wall));
    for (const result of results) {
      result.binderyMs = median(result.bindery.map((sample) => sample.wall));
      result.toolMs = median(result.tool.map((sample) => sample.wall));
      result.ratio = result.binderyMs === null || result.toolMs === null || nodeMs === null ? null : result.binderyMs / (result.toolMs + nodeMs);
    }
    return { label, files: layout.files.length, changes: edits.total, nodeMs, results };
  } finally {
    fs.rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  }
}

const cli = await prepareCli({ build: !args.includes('--no-build'), renderer: false, cliDir: args.includes('--cli-dir') ? flag(args, '--cli-dir', '') : undefined });
const dir = flag(args, '--dir', os.tmpdir());
const measured = sizes.map((size) => measure(cli, size.label, size.files, dir));

const rows = measured.flatMap((tree) =>
  tree.results.map((result) => [
    `${tree.label} (${tree.files.toLocaleString('en-US')})`,
    `\`${result.name}\` vs \`${result.raw}\``,
    result.timedOut ? `> ${formatMs(timeoutMs)}` : formatMs(result.binderyMs),
    formatMs(result.toolMs),
    formatMs(tree.nodeMs),
    result.ratio === null ? 'n/a' : `${result.ratio.toFixed(2)}x`,
    result.timedOut || result.ratio === null ? 'missed' : result.ratio <= GOAL ? 'met' : 'missed',
  ]),
);
const info = machine();
console.log(`\nCLI at the user's level${args.includes('--quick') ? ' (--quick: proves it runs, not figures to quote)' : ''}: medians of ${runs} paired runs, ${changes} changes per sandbox (node ${info.node}, ${info.cpus} CPUs, load ${info.load})\n`);
console.log(table(['tree (files)', 'case', 'bindery', 'raw tool', 'node -e 0', 'ratio vs raw + node', `goal ${GOAL}x`], rows));
const file = writeResults('user-cli.json', { machine: info, runs, changes, goal: GOAL, timeoutMs, trees: measured });
console.log(`\nJSON: ${path.relative(process.cwd(), file)}`);
