/**
 * Two processes committing into one original at once (sandbox/commit/race.test.ts, bench/commit-soak.ts):
 * one round sets up a data directory, an original of `files` files and its sandbox(es), starts two
 * child processes that commit, and checks what a person would: the original holds exactly the
 * winner's result, the loser says why it wrote nothing, and the registry, the journal, the
 * activity log and undo all agree. Uses no test framework, so the bench can run it too.
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
import * as journal from '../../sandbox/commit/journal/index.ts';
import { SandboxManager } from '../../sandbox/index.ts';
import { REPO_ROOT, tsxArgs } from '../child-process.ts';

const CHILD = path.join(import.meta.dirname, 'commit-race-child.ts');

/** `same`: both commit one sandbox; `two`: each commits its own sandbox of the same original, changed differently. */
export type RaceMode = 'same' | 'two';

/** What one child printed. */
export type RaceResult = { kind: 'committed'; transactionId: string; written: number } | { kind: 'nothing'; reason: string } | { kind: 'error'; code: string | null; message: string };

/** What a round found; `problems` is empty when all agreed. */
export interface RaceReport {
  results: RaceResult[];
  problems: string[];
}

/** Every file under `root` (folders left out) as relPath -> content. */
export function readFiles(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out[path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')] = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}

function writeAll(root: string, files: Record<string, string | null>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    if (content === null) fs.rmSync(file);
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
  }
}

/** The change a sandbox makes: rewrites most files, deletes a few, adds one. */
function changesOf(label: string, files: number): Record<string, string | null> {
  const changes: Record<string, string | null> = { [`added-${label}.txt`]: `added by ${label}\n` };
  for (let i = 0; i < files; i++) changes[`d${i % 8}/f${i}.txt`] = i % 7 === 6 ? null : `${label} ${i}\n`;
  return changes;
}

function runChild(dataDir: string, sandboxId: string, env: Record<string, string>): Promise<RaceResult> {
  const child = spawn(process.execPath, tsxArgs(CHILD, [dataDir, sandboxId]), { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const line = /^result (.*)$/m.exec(stdout);
      if (line) resolve(JSON.parse(line[1]!) as RaceResult);
      else resolve({ kind: 'error', code: 'child_failed', message: `child exited ${String(code)}: ${stderr.slice(0, 1500)}` });
    });
  });
}

/**
 * One round in a fresh folder under `workDir`. `staged` makes the race deterministic: the second
 * child starts its commit once the first has checked, and the first waits (3 s at most) at its
 * commit point for the second's check, which without a lock between processes both pass.
 */
export async function raceRound(workDir: string, mode: RaceMode, options: { files?: number; staged?: boolean } = {}): Promise<RaceReport> {
  const files = options.files ?? 350;
  const root = fs.mkdtempSync(path.join(workDir, 'race-'));
  const dataDir = path.join(root, 'data');
  const original = path.join(root, 'original');
  fs.mkdirSync(dataDir);
  const before: Record<string, string> = {};
  for (let i = 0; i < files; i++) before[`d${i % 8}/f${i}.txt`] = `old ${i}\n`;
  writeAll(original, before);
  const db = openDatabase(path.join(dataDir, 'bindery.db'));
  const problems: string[] = [];
  try {
    const manager = new SandboxManager({ store: new SqliteSandboxStore(db), dataDir, journal });
    const labels = mode === 'same' ? ['A'] : ['A', 'B'];
    const sandboxes: Array<{ id: string; planId: string; expected: Record<string, string> }> = [];
    for (const label of labels) {
      const planId = ulid();
      const now = new Date().toISOString();
      insertPlan(db, { id: planId, toolId: 'T', toolName: 'tool', projectId: 'P', projectName: 'demo', params: {}, status: 'provisioning', error: null, createdAt: now, updatedAt: now });
      const sandbox = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
      writeAll(sandbox.path, changesOf(label, files));
      sandboxes.push({ id: sandbox.id, planId, expected: readFiles(sandbox.path) });
    }
    const barrier = path.join(root, 'barrier');
    fs.mkdirSync(barrier);
    const envOf = (role: 'first' | 'second'): Record<string, string> => (options.staged ? { BINDERY_RACE_ROLE: role, BINDERY_RACE_BARRIER: barrier } : {});
    const results = await Promise.all([
      runChild(dataDir, sandboxes[0]!.id, envOf('first')),
      runChild(dataDir, sandboxes[sandboxes.length - 1]!.id, envOf('second')),
    ]);
    checkRound(problems, results, mode);
    const winnerAt = results.findIndex((r) => r.kind === 'committed');
    const winner = mode === 'same' ? sandboxes[0] : sandboxes[winnerAt];
    if (winner) await checkAfter(problems, { db, manager, dataDir, original, before, winner, results, all: sandboxes });
    return { results, problems };
  } finally {
    db.close();
    if (problems.length === 0) fs.rmSync(root, { recursive: true, force: true });
    else problems.push(`(folder kept: ${root})`);
  }
}

function checkRound(problems: string[], results: RaceResult[], mode: RaceMode): void {
  const committed = results.filter((r) => r.kind === 'committed');
  if (committed.length !== 1) problems.push(`expected exactly one child to commit, got ${JSON.stringify(results)}`);
  for (const result of results) {
    if (result.kind === 'error' && (result.code === 'child_failed' || /unexpected/i.test(result.message))) problems.push(`a child failed unclearly: ${result.message}`);
    // The loser of one sandbox finds its changes committed; of two sandboxes, the other's changes in its way.
    if (mode === 'same' && result.kind === 'error') problems.push(`the loser of one sandbox should find nothing left to commit: ${result.message.slice(0, 300)}`);
    if (mode === 'two' && result.kind === 'error' && result.code !== 'conflict') problems.push(`the loser should report a conflict: ${result.message}`);
  }
}

interface After {
  db: ReturnType<typeof openDatabase>;
  manager: SandboxManager;
  dataDir: string;
  original: string;
  before: Record<string, string>;
  winner: { id: string; planId: string; expected: Record<string, string> };
  results: RaceResult[];
  all: Array<{ id: string; planId: string }>;
}

async function checkAfter(problems: string[], a: After): Promise<void> {
  const now = readFiles(a.original);
  const wrong = Object.keys({ ...now, ...a.winner.expected }).filter((rel) => now[rel] !== a.winner.expected[rel]);
  if (wrong.length > 0) problems.push(`the original is not the winner's result at ${wrong.length} path(s), e.g. ${wrong.slice(0, 3).map((rel) => `${rel}: ${JSON.stringify(now[rel])}`).join(', ')}`);
  const commits = a.all.flatMap((s) => planCommits(a.db, s.planId));
  const winnerTx = a.results.find((r) => r.kind === 'committed')?.transactionId;
  if (commits.length !== 1 || commits[0]!.transactionId !== winnerTx || commits[0]!.sandboxId !== a.winner.id) {
    problems.push(`the registry should hold the winner's one commit, holds ${JSON.stringify(commits.map((c) => [c.sandboxId, c.transactionId, c.undoneAt]))}`);
  }
  const journals = await journal.listTransactions(path.join(a.dataDir, 'journal'));
  const states = journals.map((t) => t.state);
  if (states.filter((s) => s === 'committed').length !== 1 || states.some((s) => !['committed', 'rolled_back'].includes(s))) problems.push(`journals: ${states.join(', ')}`);
  const activity = listActivity(a.db).map((entry) => entry.kind);
  if (activity.filter((kind) => kind === 'commit').length !== 1 || activity.some((kind) => kind.startsWith('commit.'))) problems.push(`activity log: ${activity.join(', ')}`);
  try {
    await a.manager.undo(a.winner.id);
    const undone = readFiles(a.original);
    const differ = Object.keys({ ...undone, ...a.before }).filter((rel) => undone[rel] !== a.before[rel]);
    if (differ.length > 0) problems.push(`undo did not bring the original back at ${differ.length} path(s), e.g. ${differ.slice(0, 3).join(', ')}`);
  } catch (error) {
    problems.push(`undo of the winner's commit failed: ${(error as Error).message.slice(0, 300)}`);
  }
}
