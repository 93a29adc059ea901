/**
 * One crash trial, shared by the test suite and bench/commit-soak.ts: a fresh target, a child
 * process that commits (or recovers, or undoes) and dies by SIGKILL at an injected point or after
 * a delay, then recovery in this process and a check that every file is wholly old or new.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { materializeOld, verifyTarget, type Scenario, type ScenarioState } from './crash-scenario.ts';
import { applyTransaction, listTransactions, recoverTransactions } from '../index.ts';
import type { FaultPoint } from '../types.ts';
import { REPO_ROOT, tsxArgs } from '../../../../testing/child-process.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, 'crash-child.ts');
/** What crash-child.ts writes into a target when asked to drift one. */
const USER_EDIT: ScenarioState = {
  kind: 'file',
  sha256: createHash('sha256').update('user edit\n').digest('hex'),
  mode: 0o644,
  content: 'user edit\n',
};

/** Where and how the child dies. */
export type Kill = { point: FaultPoint; at: number } | { delayMs: number } | null;

/** One trial: the commit dies by `kill`; `then` optionally runs a second child (recovery or undo) that dies too. */
export interface TrialSpec {
  name: string;
  commit: Kill;
  /** Edit one target between check and rename in the commit child (at its n-th rename). */
  driftAt?: number;
  then?: { command: 'recover' | 'undo'; kill: Kill };
}

/** What a trial found. */
export interface TrialReport {
  name: string;
  side: 'old' | 'new' | 'mixed';
  outcomes: string[];
  problems: string[];
}

interface ChildRun {
  signal: NodeJS.Signals | null;
  code: number | null;
  stdout: string;
  stderr: string;
}

function runChild(args: string[], kill: Kill, driftAt = 0): Promise<ChildRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, BINDERY_DRIFT_AT: String(driftAt) };
  if (kill && 'point' in kill) {
    env.BINDERY_CRASH_POINT = kill.point;
    env.BINDERY_CRASH_AT = String(kill.at);
  }
  const child = spawn(process.execPath, tsxArgs(CHILD, args), { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let timer: NodeJS.Timeout | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (!stdout.includes('ready\n') && (stdout + chunk).includes('ready\n') && kill && 'delayMs' in kill) {
      timer = setTimeout(() => child.kill('SIGKILL'), kill.delayMs);
    }
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function childProblem(run: ChildRun, what: string): string | null {
  if (run.signal === 'SIGKILL' || run.code === 0) return null;
  return `${what} child failed (code ${String(run.code)}, signal ${String(run.signal)}): ${run.stderr.slice(0, 800)}`;
}

/** Runs one trial in a fresh folder under `workDir`; the scenario's files live in `scenarioFile`. */
export async function runTrial(workDir: string, scenarioFile: string, scenario: Scenario, spec: TrialSpec): Promise<TrialReport> {
  const trialDir = await fs.mkdtemp(path.join(workDir, 'trial-'));
  const target = path.join(trialDir, 'target');
  const journalDir = path.join(trialDir, 'journal');
  const problems: string[] = [];
  const overrides = new Map<string, ScenarioState>();
  materializeOld(target, scenario);
  try {
    if (spec.then?.command === 'undo') {
      const applied = await applyTransaction({ journalDir, targetRoot: target, ops: scenario.ops, removeDirs: scenario.removeDirs });
      if (applied.kind !== 'applied') throw new Error(`setup commit drifted: ${JSON.stringify(applied.paths.slice(0, 3))}`);
      const run = await runChild(['undo', scenarioFile, target, journalDir, applied.transactionId], spec.then.kill);
      problems.push(...[childProblem(run, 'undo')].filter((p): p is string => p !== null));
    } else {
      const run = await runChild(['apply', scenarioFile, target, journalDir], spec.commit, spec.driftAt);
      problems.push(...[childProblem(run, 'commit')].filter((p): p is string => p !== null));
      for (const match of run.stdout.matchAll(/^drift (.*)$/gm)) {
        overrides.set(JSON.parse(match[1]!) as string, USER_EDIT);
      }
      if (spec.then) {
        const second = await runChild(['recover', scenarioFile, target, journalDir], spec.then.kill);
        problems.push(...[childProblem(second, 'recovery')].filter((p): p is string => p !== null));
      }
    }
    const recovered = await recoverTransactions(journalDir);
    const again = await recoverTransactions(journalDir);
    if (again.length > 0) problems.push(`second recovery was not a no-op: ${JSON.stringify(again)}`);
    const unfinished = (await listTransactions(journalDir)).filter((t) => !['committed', 'rolled_back', 'undone'].includes(t.state));
    if (unfinished.length > 0) problems.push(`unfinished journals after recovery: ${unfinished.map((t) => t.state).join(', ')}`);
    const verdict = verifyTarget(target, scenario, overrides);
    problems.push(...verdict.problems);
    for (const { outcome } of recovered) {
      const expected = outcome === 'completed' ? 'new' : 'old';
      if (verdict.side !== expected && overrides.size === 0) problems.push(`recovery said ${outcome} but the target is ${verdict.side}`);
    }
    return { name: spec.name, side: verdict.side, outcomes: recovered.map((r) => r.outcome), problems };
  } catch (error) {
    problems.push(`trial error: ${error instanceof Error ? error.message : String(error)} (folder kept: ${trialDir})`);
    return { name: spec.name, side: 'mixed', outcomes: [], problems };
  } finally {
    if (problems.length === 0) await fs.rm(trialDir, { recursive: true, force: true });
  }
}

/** Writes the scenario where child processes can read it. */
export async function saveScenario(file: string, scenario: Scenario): Promise<void> {
  await fs.writeFile(file, JSON.stringify(scenario));
}
