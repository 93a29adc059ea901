/**
 * `npm run bench:user`: the user-level benchmarks of issue 22 in one command, for an idle machine.
 * Builds the CLI and the renderer once, then runs bench/user-cli.ts (small, medium and large trees)
 * and bench/user-review.ts (Chromium through `bindery serve`), each in its own process, passing the
 * other flags on (--runs, --dir, --timeout, --cli-dir to both; --sizes and --changes to the CLI's;
 * --files, --review-changes and --idle to the review's). Tables are printed, JSON goes to bench/results/.
 * `--quick` runs each at a few minutes' size (a 200-file tree; a review of 60 changes; one round).
 * Usage: npm run bench:user [-- --runs 5 --dir /dev/shm ...]; `-- cli` or `-- review` runs one.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { prepareCli } from './fixtures/bindery-cli.ts';

const args = process.argv.slice(2);
const wanted: string[] = args.filter((arg) => arg === 'cli' || arg === 'review');
const flags = args.filter((arg) => arg !== 'cli' && arg !== 'review');

if (!flags.includes('--no-build')) await prepareCli({ build: true, renderer: true, cliDir: flags.includes('--cli-dir') ? flags[flags.indexOf('--cli-dir') + 1] : undefined });
let failed = 0;
for (const name of ['cli', 'review']) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n=== user-${name} ===`);
  // Each takes the flags it knows and leaves the others' (their names differ where their meanings do).
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, `user-${name}.ts`), ...flags, '--no-build'], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
