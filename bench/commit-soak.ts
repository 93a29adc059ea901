/**
 * Soak test of the commit journal: many more crash trials than the test suite (same scenario of
 * 1,000 files, same kinds of SIGKILL: injected points at random indexes, random delays, during
 * recovery, undo and drift rollback). Prints a summary; exits 1 if any trial found a problem.
 * Then the engine's (commit and undo through a SandboxManager, registry and activity log checked
 * too) and many rounds of two processes committing into one original at once (issue 20).
 * Usage: tsx bench/commit-soak.ts [--trials 550] [--engine-trials 100] [--races 40] [--seed N] [--parallel 2]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { engineTrials, runEngineTrial } from '../main/testing/sandbox/commit-crash-trial.ts';
import { raceRound } from '../main/testing/sandbox/commit-race.ts';
import { buildScenario } from '../main/sandbox/commit/journal/testing/crash-scenario.ts';
import { runTrial, saveScenario, type TrialReport } from '../main/sandbox/commit/journal/testing/crash-trial.ts';
import { crashTrials, SUITE_MIX, type TrialMix } from '../main/sandbox/commit/journal/testing/crash-trials.ts';
import { forEachLimit } from '../main/sandbox/fs/pool.ts';

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

const engineCount = option('engine-trials', 100);
const engine = [...engineTrials(seed, 'commit', Math.ceil(engineCount / 2), 1000), ...engineTrials(seed, 'undo', Math.floor(engineCount / 2), 200)];
console.log(`\nEngine crash trials: ${engine.length} SIGKILLed commits and undos through a SandboxManager`);
let engineFailed = 0;
await forEachLimit(engine, parallel, async (trial) => {
  const report = await runEngineTrial(workDir, trial);
  if (report.problems.length > 0) {
    engineFailed++;
    console.log(`FAIL ${trial.name}\n  ${report.problems.slice(0, 10).join('\n  ')}`);
  }
});
console.log(`${engineFailed === 0 ? 'OK' : 'FAILED'}: ${engine.length - engineFailed}/${engine.length} engine trials consistent`);

const races = option('races', 40);
console.log(`\nCommit races: ${races} rounds of two processes committing into one original at once`);
let raceFailed = 0;
const outcomes = new Map<string, number>();
for (let round = 0; round < races; round++) {
  const report = await raceRound(workDir, round % 2 === 0 ? 'same' : 'two', { files: 350 });
  const key = report.results.map((r) => r.kind).join('+');
  outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  if (report.problems.length > 0) {
    raceFailed++;
    console.log(`FAIL round ${round}\n  ${report.problems.slice(0, 10).join('\n  ')}`);
  }
}
console.log(`${raceFailed === 0 ? 'OK' : 'FAILED'}: ${races - raceFailed}/${races} rounds consistent (outcomes: ${[...outcomes].map(([k, n]) => `${k} ${n}`).join(', ')})`);

const anyFailed = failed + engineFailed + raceFailed;
if (anyFailed === 0) fs.rmSync(workDir, { recursive: true, force: true });
else console.log(`Failed trials kept under ${workDir}`);
process.exitCode = anyFailed === 0 ? 0 : 1;
