/**
 * The engine's crash trials (issue 20): 50 commits, 50 undos and 20 partial commits (issue 23)
 * through a SandboxManager, each SIGKILLed at a random journal point or after a random delay; after
 * recovery at the next start the original is wholly old or wholly new (for a partial commit, the
 * original plus the chosen hunks) and the registry, journal and activity log agree (a
 * commit is recorded exactly when its journal committed, and can be undone). Set
 * BINDERY_CRASH_SEED to replay; bench/commit-soak.ts runs more.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineTrials, runEngineTrial } from '../../testing/sandbox/commit-crash-trial.ts';

const seed = Number(process.env.BINDERY_CRASH_SEED ?? Date.now() % 1_000_000);
const trials = [...engineTrials(seed, 'commit', 50, 300), ...engineTrials(seed, 'undo', 50, 60), ...engineTrials(seed, 'partial', 20, 100)];
const sides = new Map<string, string>();
let workDir = '';

// One folder for all trials (the fixtures' per-test folders go after each test, concurrent ones too).
beforeAll(() => void (workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-engine-crash-')))));
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe(`engine crash trials (seed ${seed})`, () => {
  it('has 50 random kills of commits, 50 of undos and 20 of partial commits', () => {
    expect(trials.filter((t) => t.command === 'commit')).toHaveLength(50);
    expect(trials.filter((t) => t.command === 'undo')).toHaveLength(50);
    expect(trials.filter((t) => t.command === 'partial')).toHaveLength(20);
  });

  it.concurrent.each(trials.map((trial) => [trial.name, trial] as const))('%s', async (_name, trial) => {
    const report = await runEngineTrial(workDir, trial);
    sides.set(trial.name, report.side);
    expect(report.problems).toEqual([]);
  }, 180_000);

  it('ended on both sides across the trials', () => {
    const seen = new Set(sides.values());
    expect(seen.has('old') && seen.has('new')).toBe(true);
    const partial = new Set(trials.filter((t) => t.command === 'partial').map((t) => sides.get(t.name)));
    expect(partial.has('old') && partial.has('new')).toBe(true);
  });
});
