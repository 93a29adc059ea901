/**
 * Start-up of the `bindery` command as whole processes (spawned, wall time) against bare Node
 * (`node -e 0`) in the same run. Targets (issue 24): `bindery --version` within 1.5x of bare Node,
 * `bindery types list` and `bindery plans changes` on an idle plan within 3x. The cases take turns
 * (one of each per round) so a busy neighbour slows them alike; the figures are medians.
 * It builds the CLI bundle first (bin/bindery.js would otherwise fall back to the sources).
 * Exit code 1 only past --fail-over (default 5x): a gross regression, not a noisy machine.
 * Usage: tsx bench/cli-startup.ts [--runs 15] [--fail-over 5] [--no-build]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCli } from '../scripts/build.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin', 'bindery.js');
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@x.invalid', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@x.invalid' };
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
  fs.writeFileSync(path.join(work, 'tool.yaml'), TOOL);
  const cli = (...cliArgs: string[]) => execFileSync(process.execPath, [BIN, '--data-dir', dataDir, ...cliArgs], { env: GIT_ENV, encoding: 'utf8' });
  cli('resources', 'add', 'local/app', '--type', 'git-checkout', '--location', repo);
  cli('projects', 'add', 'demo');
  cli('projects', 'link', 'demo', 'local/app');
  cli('tools', 'import', path.join(work, 'tool.yaml'), '--name', 'edit');
  const created = JSON.parse(cli('--json', 'plans', 'create', 'edit', '--project', 'demo')) as { plan_id: string };
  // A first look, as an agent's first call would make: the idle look after it is the measured one.
  cli('plans', 'changes', created.plan_id);
  return { dataDir, planId: created.plan_id };
}

/** Wall time of one whole process, in milliseconds; throws when it fails. */
function timed(argv: string[]): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(argv[0]!, argv.slice(1), { env: GIT_ENV, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`${argv.slice(1).join(' ')} exited with ${run.status}: ${run.stderr}`);
  if (run.stderr.includes('through tsx')) throw new Error(`bin/bindery.js ran the sources, not the bundle: ${run.stderr.trim()}`);
  return elapsed;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function benchmark(): Promise<number> {
  if (!args.includes('--no-build')) await buildCli();
  const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-cli-bench-')));
  try {
    const { dataDir, planId } = idlePlan(work);
    const node = process.execPath;
    const cases: Case[] = [
      { label: 'node -e 0', argv: [node, '-e', '0'], target: Infinity },
      { label: 'bindery --version', argv: [node, BIN, '--version'], target: 1.5 },
      { label: 'bindery types list', argv: [node, BIN, '--data-dir', dataDir, 'types', 'list'], target: 3 },
      { label: 'bindery plans changes (idle plan)', argv: [node, BIN, '--data-dir', dataDir, 'plans', 'changes', planId], target: 3 },
    ];
    // One untimed round: the page cache holds the files, as on a machine that ran bindery before.
    for (const entry of cases) timed(entry.argv);
    const samples = cases.map(() => [] as number[]);
    for (let round = 0; round < runs; round++) cases.forEach((entry, index) => samples[index]!.push(timed(entry.argv)));

    const baseline = median(samples[0]!);
    let gross = 0;
    console.log(`CLI start-up, ${runs} runs each, alternating; medians (node ${process.version}, ${os.cpus().length} CPUs)`);
    console.log(`${'case'.padEnd(36)}${'median'.padStart(10)}${'ratio'.padStart(8)}${'target'.padStart(8)}  verdict`);
    cases.forEach((entry, index) => {
      const ms = median(samples[index]!);
      const ratio = ms / baseline;
      const verdict = entry.target === Infinity ? 'baseline' : ratio <= entry.target ? 'met' : ratio > failOver ? `FAILED (over ${failOver}x)` : 'missed';
      if (entry.target !== Infinity && ratio > failOver) gross++;
      const target = entry.target === Infinity ? '' : `${entry.target}x`;
      console.log(`${entry.label.padEnd(36)}${`${ms.toFixed(1)} ms`.padStart(10)}${`${ratio.toFixed(2)}x`.padStart(8)}${target.padStart(8)}  ${verdict}`);
    });
    if (gross > 0) console.log(`A case took over ${failOver}x bare Node's start: a gross regression, not noise.`);
    return gross > 0 ? 1 : 0;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await benchmark();
