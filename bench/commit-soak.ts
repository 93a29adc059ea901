/**
 * Soak test of the commit journal: many more crash trials than the test suite (same scenario of
 * 1,000 files, same kinds of SIGKILL: injected points at random indexes, random delays, during
 * recovery, undo and drift rollback). Prints a summary; exits 1 if any trial found a problem.
 * Usage: tsx bench/commit-soak.ts [--trials 550] [--seed N] [--parallel 2]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildScenario } from '../main/sandbox/journal/crash-scenario.ts';
import { runTrial, saveScenario, type TrialReport } from '../main/sandbox/journal/crash-trial.ts';
import { crashTrials, SUITE_MIX, type TrialMix } from '../main/sandbox/journal/crash-trials.ts';
import { forEachLimit } from '../main/sandbox/journal/pool.ts';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const wanted = option('trials', 550);
const seed = option('seed', Date.now() % 1_000_000);
const parallel = option('parallel', 2);
const scale = Math.max(1, Math.ceil(wanted / crashTrials(0, SUITE_MIX).length));
const mix: TrialMix = {
  perPoint: SUITE_MIX.perPoint * scale,
  delays: SUITE_MIX.delays * scale,
  maxDelayMs: SUITE_MIX.maxDelayMs,
  recoveries: SUITE_MIX.recoveries * scale,
  undos: SUITE_MIX.undos * scale,
  drifts: SUITE_MIX.drifts * scale,
};
const trials = crashTrials(seed, mix);

const workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-soak-')));
const scenario = buildScenario(path.join(workDir, 'sandbox'));
const scenarioFile = path.join(workDir, 'scenario.json');
await saveScenario(scenarioFile, scenario);

console.log(`Commit journal soak: ${trials.length} SIGKILL trials over ${scenario.ops.length} files, seed ${seed}, ${parallel} at a time`);
const started = Date.now();
const reports: TrialReport[] = [];
let done = 0;
await forEachLimit(trials, parallel, async (trial) => {
  const report = await runTrial(workDir, scenarioFile, scenario, trial).catch(
    (error: unknown): TrialReport => ({ name: trial.name, side: 'mixed', outcomes: [], problems: [`trial crashed: ${String(error)}`] }),
  );
  reports.push(report);
  done++;
  if (report.problems.length > 0) console.log(`FAIL ${report.name}\n  ${report.problems.slice(0, 10).join('\n  ')}`);
  else if (done % 25 === 0) console.log(`  ${done}/${trials.length} trials, ${Math.round((Date.now() - started) / 1000)} s`);
});

const family = (name: string) => name.split(' ')[0]!;
const rows = new Map<string, { trials: number; old: number; new: number; completed: number; rolledBack: number; failed: number }>();
for (const report of reports) {
  const row = rows.get(family(report.name)) ?? { trials: 0, old: 0, new: 0, completed: 0, rolledBack: 0, failed: 0 };
  row.trials++;
  if (report.side === 'old') row.old++;
  if (report.side === 'new') row.new++;
  row.completed += report.outcomes.filter((o) => o === 'completed').length;
  row.rolledBack += report.outcomes.filter((o) => o === 'rolled_back').length;
  if (report.problems.length > 0) row.failed++;
  rows.set(family(report.name), row);
}
console.table(
  [...rows].map(([name, row]) => ({
    family: name,
    trials: row.trials,
    'ended old': row.old,
    'ended new': row.new,
    'recovery completed': row.completed,
    'recovery rolled back': row.rolledBack,
    failed: row.failed,
  })),
);
const failed = reports.filter((report) => report.problems.length > 0).length;
console.log(
  `${failed === 0 ? 'OK' : 'FAILED'}: ${trials.length - failed}/${trials.length} trials consistent in ${Math.round((Date.now() - started) / 1000)} s (seed ${seed})`,
);
if (failed === 0) fs.rmSync(workDir, { recursive: true, force: true });
else console.log(`Failed trials kept under ${workDir}`);
process.exitCode = failed === 0 ? 0 : 1;
