/**
 * The cost of the two git runners in main/git on a small repository (20 files): simple-git's
 * `raw()` against the direct spawn, for `git status --porcelain=v2 -z` (clean, and with one
 * change), `git rev-parse HEAD`, and a silent plumbing command (`update-ref`). The runners take
 * turns call by call, so a busy neighbour slows both alike. Figures are medians of wall time and
 * of this process's own CPU time per call (the runner's overhead, apart from git's run).
 * Usage: tsx bench/git-runner.ts [--runs 100]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnGit } from '../main/git/spawn-runner.ts';
import { simpleRun } from '../main/git/simple-runner.ts';

const at = process.argv.indexOf('--runs');
const runs = at === -1 ? 100 : Number(process.argv[at + 1]);
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@x.invalid', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@x.invalid' };

const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-git-runner-'));
const seed = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: GIT_ENV, stdio: 'ignore' });
seed('init', '-q', '-b', 'main');
for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(repo, `f${i}.txt`), `${i}\n`);
seed('add', '-A');
seed('commit', '-qm', 'seed');

type Runner = (args: string[]) => Promise<unknown>;
const runners: Record<string, Runner> = {
  spawn: (args) => spawnGit('bench', args, { cwd: repo }, () => undefined),
  'simple-git': (args) => simpleRun('bench', args, { cwd: repo }),
};

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(label: string, args: string[]): Promise<void> {
  const wall: Record<string, number[]> = { spawn: [], 'simple-git': [] };
  const cpu: Record<string, number[]> = { spawn: [], 'simple-git': [] };
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? ['spawn', 'simple-git'] : ['simple-git', 'spawn'];
    for (const name of order) {
      const startCpu = process.cpuUsage();
      const start = performance.now();
      await runners[name]!(args);
      wall[name]!.push(performance.now() - start);
      const used = process.cpuUsage(startCpu);
      cpu[name]!.push((used.user + used.system) / 1000);
    }
  }
  const row = (name: string) => `${name} ${median(wall[name]!).toFixed(1)} ms wall, ${median(cpu[name]!).toFixed(2)} ms CPU`;
  console.log(`${label.padEnd(28)} ${row('spawn')} | ${row('simple-git')}`);
}

try {
  console.log(`${runs} calls per runner, medians; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`);
  await measure('status -z (clean: silent)', ['status', '--porcelain=v2', '-z']);
  await measure('rev-parse HEAD', ['rev-parse', 'HEAD']);
  fs.writeFileSync(path.join(repo, 'f1.txt'), 'changed\n');
  await measure('status -z (one change)', ['status', '--porcelain=v2', '-z']);
  await measure('update-ref (silent)', ['update-ref', 'refs/bench/pin', 'HEAD']);
} finally {
  fs.rmSync(repo, { recursive: true, force: true });
}
