/**
 * A journal names the process working on it now, not the one that began it: an undo (or a
 * recovery) of a commit whose process is gone owns the journal while it runs, so another
 * process's start-up recovery leaves it alone instead of waiting for its folder's lock.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyTransaction, recoverTransactions, type TransactionOp } from './index.ts';
import { lookAtTransactions } from './pending.ts';
import { sha, workspace, writeTree } from './testing/test-support.ts';
import { tsxEvalArgs } from '../../../testing/child-process.ts';

const MODULE = path.join(import.meta.dirname, 'index.ts');

/**
 * A child that undoes the commit (of two files) and stops for good at each restored file, then
 * collects its garbage and prints "paused". The stopped undo waits on promises nothing can settle,
 * so it is unreachable: the collection proves the lock does not hang on it (process-lock.ts).
 */
function pausedUndo(journalDir: string, target: string, transactionId: string): Promise<ReturnType<typeof spawn>> {
  const script = `const { undoTransaction } = await import(${JSON.stringify(MODULE)});
let stopped = 0;
const hooks = { at: (point) => {
  if (point !== 'restored') return;
  setInterval(() => {}, 1000);
  if (++stopped === 2) setTimeout(() => { gc(); gc(); process.stdout.write('paused\\n'); }, 10);
  return new Promise(() => {});
} };
await undoTransaction({ journalDir: ${JSON.stringify(journalDir)}, targetRoot: ${JSON.stringify(target)}, transactionId: ${JSON.stringify(transactionId)}, hooks });`;
  const child = spawn(process.execPath, ['--expose-gc', ...tsxEvalArgs(script)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the undo child ended (${code}) before pausing`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => chunk.includes('paused') && resolve(child));
  });
}

/** The pid of a process that has ended. */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  return new Promise((resolve) => child.on('exit', () => resolve(child.pid!)));
}

/** A live process that does nothing (an app that is running but left a journal behind). */
function idleProcess(): ReturnType<typeof spawn> {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
}

/** Makes `pid` the owner in the newest state file of the transaction. */
function setOwner(journalDir: string, transactionId: string, pid: number): void {
  const folder = path.join(journalDir, transactionId);
  const newest = fs.readdirSync(folder).filter((name) => name.startsWith('state-')).sort().pop()!;
  const file = path.join(folder, newest);
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/"pid":\d+/, `"pid":${pid}`));
}

async function committed(): Promise<{ target: string; journalDir: string; transactionId: string }> {
  const { sandbox, target, journalDir } = workspace();
  writeTree(target, { 'a.txt': 'old a', 'b.txt': 'old b' });
  writeTree(sandbox, { 'a.txt': 'new a', 'b.txt': 'new b' });
  const ops: TransactionOp[] = ['a.txt', 'b.txt'].map((rel) => ({ relPath: rel, kind: 'write', sourcePath: path.join(sandbox, rel), expect: { kind: 'file', sha256: sha(`old ${rel[0]}`) } }));
  const result = await applyTransaction({ journalDir, targetRoot: target, ops });
  if (result.kind !== 'applied') throw new Error('setup commit drifted');
  return { target, journalDir, transactionId: result.transactionId };
}

describe('journal owner', () => {
  it('alive but not at work on it (not holding its folder\'s lock): the journal is recovered, not skipped', async () => {
    const { target, journalDir, transactionId } = await committed();
    const undo = await pausedUndo(journalDir, target, transactionId);
    undo.kill('SIGKILL');
    await new Promise((resolve) => undo.once('close', resolve));
    const idle = idleProcess();
    try {
      setOwner(journalDir, transactionId, idle.pid!);
      expect(await recoverTransactions(journalDir)).toEqual([{ transactionId, outcome: 'undone' }]);
      expect(fs.readFileSync(path.join(target, 'a.txt'), 'utf8')).toBe('old a');
    } finally {
      idle.kill('SIGKILL');
    }
  }, 30_000);

  // It failed once in CI: the child's lock connection was garbage-collected with its stopped undo,
  // which dropped the lock (fixed in process-lock.ts); the child now collects before "paused".
  it('is the undoing process while it runs: start-up recovery elsewhere skips it at once', async () => {
    const { target, journalDir, transactionId } = await committed();
    // The committing process is gone (as when the CLI that committed has exited).
    setOwner(journalDir, transactionId, await deadPid());
    const child = await pausedUndo(journalDir, target, transactionId);
    try {
      // The undo saves its state, naming itself, before it restores anything (undo.ts).
      const [look] = await lookAtTransactions(journalDir);
      expect(look).toMatchObject({ settled: null, owner: { pid: child.pid } });
      const skipped = await Promise.race([recoverTransactions(journalDir), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3000))]);
      expect(skipped).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
