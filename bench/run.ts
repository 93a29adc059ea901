/**
 * `npm run bench`: runs every `bench/*-bench.ts`, and the CLI start-up benchmark, each in its own
 * process (so peak memory is per benchmark), in name order. Pass names to run a subset:
 * `npm run bench -- resolution`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('-'));
/** Benchmarks not named `*-bench.ts`. */
const OTHERS = ['cli-startup.ts'];
const files = fs
  .readdirSync(dir)
  .filter((file) => file.endsWith('-bench.ts') || OTHERS.includes(file))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.includes(name)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', path.join(dir, file), ...flags], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
