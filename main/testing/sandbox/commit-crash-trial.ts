/**
 * The engine's crash trials (sandbox/commit/crash-trials.test.ts, bench/commit-soak.ts): a child commits
 * (or undoes) a sandbox through a SandboxManager and is SIGKILLed at a random journal point or
 * after a random delay; after recovery at the next start, the original must be wholly old or
 * wholly new (for a partial commit, wholly the original plus the chosen hunks), and the registry (commit recorded, undone), the journal and the activity log must
 * all say the same. Uses no test framework, so the bench can run it too.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ulid } from 'ulid';
import { listActivity } from '../../registry/activity.ts';
import { openDatabase } from '../../registry/database.ts';
import { SqliteSandboxStore } from '../../registry/sandbox-store.ts';
import { insertPlan } from '../../registry/plans.ts';
import { planCommits } from '../../registry/sandbox-commits.ts';
import { readFiles } from './commit-race.ts';
import { seededRandom } from '../../sandbox/commit/journal/testing/crash-scenario.ts';
import * as journal from '../../sandbox/commit/journal/index.ts';
import type { FaultPoint } from '../../sandbox/index.ts';
import { SandboxManager } from '../../sandbox/index.ts';
import { REPO_ROOT, tsxArgs } from '../child-process.ts';
import { applySelection, type PatchSelection } from '../../../shared/patch-selection.ts';

const CHILD = path.join(import.meta.dirname, 'commit-crash-trial-child.ts');

/** One trial: what the child does, and where it dies. */
export interface EngineTrial {
  name: string;
  /** `partial`: a commit that takes only the first hunk of each modified file (issue 23). */
  command: 'commit' | 'undo' | 'partial';
  files: number;
  kill: { point: FaultPoint; at: number } | { delayMs: number };
}

const COMMIT_POINTS: FaultPoint[] = ['checked', 'backed_up', 'prepared', 'staged', 'decided', 'before_replace', 'replaced', 'synced', 'finished'];
const UNDO_POINTS: FaultPoint[] = ['restored', 'synced', 'finished'];

/** `count` reproducible trials of `command` from `seed`: most at a random hit of a random point, some after a random delay. */
export function engineTrials(seed: number, command: EngineTrial['command'], count: number, files: number): EngineTrial[] {
  const random = seededRandom(seed + (command === 'undo' ? 7919 : command === 'partial' ? 104_729 : 0));
  const trials: EngineTrial[] = [];
  const points = command === 'undo' ? UNDO_POINTS : COMMIT_POINTS;
  for (let i = 0; i < count; i++) {
    const point = points[i % points.length]!;
    const perFile = !['checked', 'prepared', 'decided', 'synced', 'finished'].includes(point);
    const kill = i % 5 === 4 ? { delayMs: Math.floor(random() * 1500) } : { point, at: perFile ? 1 + Math.floor(random() * files * 0.8) : 1 };
    trials.push({ name: `${command} #${i} ${'point' in kill ? `kill at ${kill.point}#${kill.at}` : `kill after ${kill.delayMs}ms`}`, command, files, kill });
  }
  return trials;
}

function runChild(dataDir: string, sandboxId: string, trial: EngineTrial, selections: Record<string, PatchSelection>): Promise<{ signal: string | null; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, BINDERY_TRIAL_SELECTIONS: JSON.stringify(selections) };
  if ('point' in trial.kill) Object.assign(env, { BINDERY_CRASH_POINT: trial.kill.point, BINDERY_CRASH_AT: String(trial.kill.at) });
  const child = spawn(process.execPath, tsxArgs(CHILD, [dataDir, sandboxId, trial.command]), { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let timer: NodeJS.Timeout | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (chunk.includes('ready') && 'delayMs' in trial.kill) timer = setTimeout(() => child.kill('SIGKILL'), trial.kill.delayMs);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      resolve({ signal, stderr });
    });
  });
}

/** Runs one trial in a fresh folder under `workDir`; returns the problems found (none when all agree). */
export async function runEngineTrial(workDir: string, trial: EngineTrial): Promise<{ side: 'old' | 'new' | 'mixed'; problems: string[] }> {
  const root = fs.mkdtempSync(path.join(workDir, 'trial-'));
  const dataDir = path.join(root, 'data');
  const original = path.join(root, 'original');
  fs.mkdirSync(dataDir);
  const before: Record<string, string> = {};
  const partial = trial.command === 'partial';
  for (let i = 0; i < trial.files; i++) before[`d${i % 10}/f${i}.txt`] = partial ? twoHunks(i, 'old') : `old ${i}\n`;
  for (const [rel, content] of Object.entries(before)) {
    fs.mkdirSync(path.dirname(path.join(original, rel)), { recursive: true });
    fs.writeFileSync(path.join(original, rel), content);
  }
  const db = openDatabase(path.join(dataDir, 'bindery.db'));
  const problems: string[] = [];
  let side: 'old' | 'new' | 'mixed' = 'mixed';
  try {
    const manager = new SandboxManager({ store: new SqliteSandboxStore(db), dataDir, journal });
    const planId = ulid();
    const now = new Date().toISOString();
    insertPlan(db, { id: planId, toolId: 'T', toolName: 'tool', projectId: 'P', projectName: 'demo', params: {}, status: 'provisioning', error: null, createdAt: now, updatedAt: now });
    const sandbox = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    const selections: Record<string, PatchSelection> = {};
    for (let i = 0; i < trial.files; i++) {
      const rel = `d${i % 10}/f${i}.txt`;
      const file = path.join(sandbox.path, rel);
      if (i % 9 === 8) fs.rmSync(file);
      else fs.writeFileSync(file, partial ? twoHunks(i, 'new') : `new ${i}\n`);
      if (partial && i % 9 !== 8) selections[rel] = { hunks: [1] };
    }
    fs.writeFileSync(path.join(sandbox.path, 'added.txt'), 'added\n');
    const after = readFiles(sandbox.path);
    // A partial commit's "new" is the original plus the chosen hunk of each modified file.
    for (const [rel, selection] of Object.entries(selections)) after[rel] = applySelection(before[rel]!, after[rel]!, selection);
    if (trial.command === 'undo') await manager.commit(sandbox.id);
    const run = await runChild(dataDir, sandbox.id, trial, selections);
    if (run.signal !== 'SIGKILL' && run.stderr.trim()) problems.push(`child failed: ${run.stderr.slice(0, 500)}`);
    await manager.recover();
    const now2 = readFiles(original);
    const same = (want: Record<string, string>) => Object.keys({ ...want, ...now2 }).every((rel) => want[rel] === now2[rel]);
    side = same(before) ? 'old' : same(after) ? 'new' : 'mixed';
    if (side === 'mixed') problems.push(`the original is neither wholly old nor wholly new: ${Object.keys(now2).filter((rel) => rel.includes('.bindery-tmp-')).length} temp file(s)`);
    const journals = await journal.listTransactions(path.join(dataDir, 'journal'));
    const unfinished = journals.filter((t) => !['committed', 'rolled_back', 'undone'].includes(t.state));
    if (unfinished.length > 0) problems.push(`unfinished journals after recovery: ${unfinished.map((t) => t.state).join(', ')}`);
    const committed = journals.filter((t) => t.state === 'committed').map((t) => t.transactionId);
    const commits = planCommits(db, planId);
    const live = commits.filter((c) => !c.undoneAt);
    const kinds = listActivity(db).map((entry) => entry.kind);
    const count = (...wanted: string[]) => kinds.filter((kind) => wanted.includes(kind)).length;
    const isNew = side === 'new';
    // The registry holds a live commit exactly when the journal says committed, and it is that journal's.
    if (live.length !== (isNew ? 1 : 0) || JSON.stringify(live.map((c) => c.transactionId)) !== JSON.stringify(committed)) {
      problems.push(`registry and journal disagree: live commits ${JSON.stringify(live.map((c) => c.transactionId))}, committed journals ${JSON.stringify(committed)}`);
    }
    if (manager.sandbox(sandbox.id).status !== (isNew ? 'committed' : 'ready')) problems.push(`sandbox status ${manager.sandbox(sandbox.id).status} with the original ${side}`);
    if (trial.command !== 'undo' && count('commit', 'commit.recovered') !== (isNew ? 1 : 0)) problems.push(`activity log: ${kinds.join(', ')} with the original ${side}`);
    if (trial.command === 'undo' && (count('commit') !== 1 || count('commit.undone') !== (isNew ? 0 : 1) || commits.length !== 1)) problems.push(`activity log: ${kinds.join(', ')} with the original ${side}`);
    if (isNew) {
      await manager.undo(sandbox.id);
      const undone = readFiles(original);
      if (Object.keys({ ...before, ...undone }).some((rel) => before[rel] !== undone[rel])) problems.push('undo after recovery did not bring the original back');
    } else if (!(await manager.undo(sandbox.id).then(() => false, (e: Error) => /has no commit to undo/.test(e.message)))) {
      problems.push('an undo was possible although the original is old');
    }
  } catch (error) {
    problems.push(`trial error: ${(error as Error).message}`);
  } finally {
    db.close();
    if (problems.length === 0) fs.rmSync(root, { recursive: true, force: true });
    else problems.push(`(folder kept: ${root})`);
  }
  return { side, problems };
}

/** Twelve lines whose 2nd and 11th say `word`: two hunks apart, so a partial commit can take one. */
function twoHunks(i: number, word: 'old' | 'new'): string {
  return Array.from({ length: 12 }, (_, k) => (k === 1 || k === 10 ? `${word} ${i}.${k}\n` : `same ${k}\n`)).join('');
}
