import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import { TEMP_PREFIX } from './journal/index.ts';
import { listActivity, newManager } from '../../testing/sandbox/harness.ts';
import { tsxArgs } from '../../testing/child-process.ts';

const FILES = 40;
const child = path.join(import.meta.dirname, '../../testing/sandbox/commit-crash-child.ts');

function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const next = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) visit(next);
      else out[next] = fs.readFileSync(path.join(root, next), 'utf8');
    }
  };
  visit('');
  return out;
}

describe('a commit killed mid-way', () => {
  // `finished`: right after the journal's committed state, before the registry records the commit (issue 20, item 5).
  it.each(['backed_up', 'staged', 'decided', 'replaced', 'synced', 'finished'])('is finished or undone by recovery at the next start (killed at %s)', async (point) => {
    const { manager, plan, dataDir } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`d${i % 4}/f${i}.txt`, `old ${i}\n`])));
    const before = tree(original);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    for (let i = 0; i < FILES; i++) writeFiles(sandbox.path, { [`d${i % 4}/f${i}.txt`]: `new ${i}\n` });
    writeFiles(sandbox.path, { 'added.txt': 'added\n' });
    const run = spawnSync(process.execPath, tsxArgs(child, [dataDir, sandbox.id, point]), { encoding: 'utf8' });
    expect(run.signal, run.stderr).toBe('SIGKILL');

    const report = await manager.recover();
    expect(report.transactions).toHaveLength(1);
    const after = tree(original);
    const outcome = report.transactions[0]!.outcome;
    for (const [rel, old] of Object.entries(before)) expect([old, old.replace('old', 'new')]).toContain(after[rel]);
    if (outcome === 'rolled_back') expect(after).toEqual(before);
    else expect(after).toEqual({ ...Object.fromEntries(Object.entries(before).map(([k, v]) => [k, v.replace('old', 'new')])), 'added.txt': 'added\n' });
    expect(Object.keys(after).filter((rel) => path.basename(rel).startsWith(TEMP_PREFIX))).toEqual([]);
    // A commit recovery finished is recorded as the sandbox's: the tool can work on without conflicts, and it can be undone like any other.
    if (outcome === 'completed') {
      expect(manager.sandbox(sandbox.id).status).toBe('committed');
      writeFiles(sandbox.path, { 'd0/f0.txt': 'newer 0\n' });
      const drifts = new Set((await manager.changes(sandbox.id)).changes.map((change) => `${change.path} ${change.drift}`));
      expect([drifts.has('d0/f0.txt clean'), drifts.has('d1/f1.txt applied')]).toEqual([true, true]);
      writeFiles(sandbox.path, { 'd0/f0.txt': 'new 0\n' });
      expect((await manager.undo(sandbox.id)).restored).toHaveLength(FILES + 1);
      expect(tree(original)).toEqual(before);
    } else await expect(manager.undo(sandbox.id)).rejects.toThrow(/has no commit to undo/);
  });
});

describe('an undo killed mid-way', () => {
  it.each([
    ['restored', 'recovery at the next start finishes it'],
    ['finished', 'the journal had recorded it, and recovery at the next start records it too'],
  ] as const)('at %s: %s, and the commit counts as undone', async (point, _how) => {
    const { manager, plan, dataDir, db } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'a.txt': 'old a\n', 'b.txt': 'old b\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'a.txt': 'new a\n', 'b.txt': 'new b\n' });
    const run = spawnSync(process.execPath, tsxArgs(child, [dataDir, sandbox.id, point, 'undo']), { encoding: 'utf8' });
    expect(run.signal, run.stderr).toBe('SIGKILL');

    const { transactions } = await manager.recover();
    expect(transactions).toEqual([{ transactionId: expect.any(String), outcome: 'undone', labels: { sandboxId: sandbox.id, planId: expect.any(String) } }]);
    expect(listActivity(db, { limit: 5 }).map((entry) => entry.message)).toContainEqual(expect.stringMatching(/An interrupted undo \(.*\) was finished at start\./));
    expect(tree(original)).toEqual({ 'a.txt': 'old a\n', 'b.txt': 'old b\n' });
    expect(manager.sandbox(sandbox.id).status).toBe('ready');
    await expect(manager.undo(sandbox.id)).rejects.toThrow(/has no commit to undo/);
  });
});
