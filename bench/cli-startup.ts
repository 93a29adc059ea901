/**
 * Start-up of the `bindery` command as whole processes (spawned, wall time) against bare Node
 * (`node -e 0`) in the same run. Targets (issue 24): `bindery --version` within 1.5x of bare Node,
 * `bindery types list` and `bindery plans changes` on an idle plan within 3x. The cases take turns
 * (one of each per round) so a busy neighbour slows them alike; the figures are medians.
 * It builds the CLI bundle first (bin/bindery.js would otherwise fall back to the sources) and runs
 * `node bin/bindery.js` as npx does; --bundle runs out/cli/bindery.js itself instead, skipping the
 * bin's freshness check (a few milliseconds), for a checkout whose sources others are editing;
 * --cli-dir DIR builds the bundle into DIR and runs DIR/bindery.js (better-sqlite3 found through
 * NODE_PATH), leaving out/cli alone.
 * Exit code 1 only past --fail-over (default 5x): a gross regression, not a noisy machine.
 * Usage: tsx bench/cli-startup.ts [--runs 15] [--fail-over 5] [--no-build] [--bundle] [--cli-dir DIR]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCli } from '../scripts/build.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI_DIR = cliDir(process.argv.slice(2));
const BIN = CLI_DIR ? path.join(CLI_DIR, 'bindery.js') : path.join(ROOT, ...(process.argv.includes('--bundle') ? ['out', 'cli', 'bindery.js'] : ['bin', 'bindery.js']));
/**
 * The folder of --cli-dir, or undefined without it. A missing value would resolve to the current
 * folder, and the build would write its files (and clear a chunks folder) there.
 */
function cliDir(argv: string[]): string | undefined {
  const at = argv.indexOf('--cli-dir');
  if (at === -1) return undefined;
  const value = argv[at + 1];
  if (!value || value.startsWith('--')) throw new Error('--cli-dir takes a folder for the bundle, e.g. --cli-dir /tmp/me/cli');
  return path.resolve(value);
}
// A --cli-dir folder outside the checkout (/tmp/me/cli) finds better-sqlite3 through NODE_PATH.
const NODE_PATH = CLI_DIR ? { NODE_PATH: path.join(ROOT, 'node_modules') } : {};
const GIT_ENV = { ...process.env, ...NODE_PATH, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@x.invalid', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@x.invalid' };
const TOOL = `resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
    binding: contextual
`;

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(args[at + 1]);
  if (!(value > 0)) throw new Error(`${name} takes a positive number, e.g. ${name} ${fallback}`);
  return value;
};
const runs = Math.round(option('--runs', 15));
const failOver = option('--fail-over', 5);

interface Case {
  label: string;
  argv: string[];
  /** Allowed median over bare Node's; Infinity for the baseline. */
  target: number;
}

/** A data directory with a git repository, a project, a one-slot tool and a plan nobody touched. */
function idlePlan(work: string): { dataDir: string; planId: string } {
  const dataDir = path.join(work, 'data');
  const repo = path.join(work, 'app');
  fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
  for (let index = 0; index < 20; index++) fs.writeFileSync(path.join(repo, 'src', `file-${index}.ts`), `export const value${index} = ${index};\n`);
  const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: repo, env: GIT_ENV, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  fs.writeFileSync(path.join(work, 'edit.yaml'), TOOL);
  const cli = (...cliArgs: string[]) => execFileSync(process.execPath, [BIN, '--data-dir', dataDir, ...cliArgs], { env: GIT_ENV, encoding: 'utf8' });
  cli('resources', 'add', 'local/app', '--type', 'git-checkout', '--location', repo);
  cli('projects', 'add', 'demo');
  cli('projects', 'link', 'demo', 'local/app');
  cli('tools', 'import', path.join(work, 'edit.yaml'));
  const created = JSON.parse(cli('--json', 'plans', 'create', 'edit', '--project', 'demo')) as { plan_id: string };
  // A first look, as an agent's first call would make: the idle look after it is the measured one.
  cli('plans', 'changes', created.plan_id);
  return { dataDir, planId: created.plan_id };
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

/** Wall and CPU time of one whole process, in milliseconds; throws when it fails. */
function timed(argv: string[]): { wall: number; cpu: number | null } {
  const cpuBefore = childCpuMs();
  const started = process.hrtime.bigint();
  const run = spawnSync(argv[0]!, argv.slice(1), { env: GIT_ENV, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuAfter = childCpuMs();
  if (run.status !== 0) throw new Error(`${argv.slice(1).join(' ')} exited with ${run.status}: ${run.stderr}`);
  if (run.stderr.includes('through tsx')) throw new Error(`bin/bindery.js ran the sources, not the bundle: ${run.stderr.trim()}`);
  return { wall, cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function benchmark(): Promise<number> {
  if (!args.includes('--no-build')) await buildCli(CLI_DIR ? { outDir: CLI_DIR } : {});
  const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-cli-bench-')));
  try {
    const { dataDir, planId } = idlePlan(work);
    const node = process.execPath;
    const cases: Case[] = [
      { label: 'node -e 0', argv: [node, '-e', '0'], target: Infinity },
      { label: 'bindery --version', argv: [node, BIN, '--version'], target: 1.5 },
      { label: 'bindery types list', argv: [node, BIN, '--data-dir', dataDir, 'types', 'list'], target: 3 },
      { label: 'bindery plans changes (idle plan)', argv: [node, BIN, '--data-dir', dataDir, 'plans', 'changes', planId], target: 3 },
      { label: 'bindery plans show (idle plan)', argv: [node, BIN, '--data-dir', dataDir, 'plans', 'show', planId], target: 3 },
    ];
    // One untimed round: the page cache holds the files, as on a machine that ran bindery before.
    for (const entry of cases) timed(entry.argv);
    const samples = cases.map(() => [] as Array<{ wall: number; cpu: number | null }>);
    for (let round = 0; round < runs; round++) cases.forEach((entry, index) => samples[index]!.push(timed(entry.argv)));

    const wall = samples.map((list) => median(list.map((sample) => sample.wall)));
    const cpu = samples.map((list) => (list.every((sample) => sample.cpu !== null) ? median(list.map((sample) => sample.cpu!)) : null));
    let gross = 0;
    console.log(`CLI start-up, ${runs} runs each, alternating; medians (node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)})`);
    console.log(`${'case'.padEnd(36)}${'wall'.padStart(10)}${'ratio'.padStart(8)}${'target'.padStart(8)}  ${'verdict'.padEnd(9)}${'CPU'.padStart(9)}${'ratio'.padStart(8)}`);
    cases.forEach((entry, index) => {
      const ratio = wall[index]! / wall[0]!;
      const verdict = entry.target === Infinity ? 'baseline' : ratio <= entry.target ? 'met' : ratio > failOver ? `FAILED (over ${failOver}x)` : 'missed';
      if (entry.target !== Infinity && ratio > failOver) gross++;
      const target = entry.target === Infinity ? '' : `${entry.target}x`;
      const cpuText = cpu[index] === null || cpu[0] === null ? '' : `${`${cpu[index]!.toFixed(0)} ms`.padStart(9)}${`${(cpu[index]! / cpu[0]!).toFixed(2)}x`.padStart(8)}`;
      console.log(`${entry.label.padEnd(36)}${`${wall[index]!.toFixed(1)} ms`.padStart(10)}${`${ratio.toFixed(2)}x`.padStart(8)}${target.padStart(8)}  ${verdict.padEnd(9)}${cpuText}`);
    });
    console.log('Targets are judged on wall time; CPU time (user + system, 10 ms ticks) is shown because on a shared machine wall time also measures the neighbours.');
    if (gross > 0) console.log(`A case took over ${failOver}x bare Node's start: a gross regression, not noise.`);
    return gross > 0 ? 1 : 0;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await benchmark();
