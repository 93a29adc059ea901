/**
 * THE CRASH TEST: a child process commits 1,000 files and is SIGKILLed at random points (injected
 * protocol points at random file indexes, random delays, during recovery, undo and drift
 * rollback); after recovery every file must be wholly old or wholly new, all on one side.
 * Set BINDERY_CRASH_SEED to replay a run; bench/commit-soak.ts runs many more trials.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScenario, type Scenario } from './testing/crash-scenario.ts';
import { runTrial, saveScenario } from './testing/crash-trial.ts';
import { crashTrials, SUITE_MIX } from './testing/crash-trials.ts';

const seed = Number(process.env.BINDERY_CRASH_SEED ?? Date.now() % 1_000_000);
const trials = crashTrials(seed, SUITE_MIX);
const sides = new Map<string, string>();
let workDir = '';
let scenarioFile = '';
let scenario: Scenario;

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-crash-')));
  scenario = buildScenario(path.join(workDir, 'sandbox'));
  scenarioFile = path.join(workDir, 'scenario.json');
  await saveScenario(scenarioFile, scenario);
});

afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe(`crash trials (seed ${seed})`, () => {
  it('has at least 50 trials over 1,000 files', () => {
    expect(trials.length).toBeGreaterThanOrEqual(50);
    expect(scenario.ops).toHaveLength(1000);
  });

  it.concurrent.each(trials.map((trial) => [trial.name, trial] as const))('%s', async (_name, trial) => {
    const report = await runTrial(workDir, scenarioFile, scenario, trial);
    sides.set(trial.name, report.side);
    expect(report.problems).toEqual([]);
    if (trial.driftAt) expect(report.side).toBe('old');
  }, 120_000);

  it('ended on both sides across the trials (old and new both seen)', () => {
    const seen = new Set(sides.values());
    expect(seen.has('old') && seen.has('new')).toBe(true);
  });
});
