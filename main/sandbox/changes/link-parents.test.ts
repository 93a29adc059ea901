import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

describe.each(['git_worktree', 'copy_on_write'] as const)('a folder the tool swapped for a link (%s)', (strategy) => {
  it('lists its files as deleted, as git does, never with what the link leads to', async () => {
    const { manager, plan } = newManager();
    const files = { 'd/x.txt': 'mine\n', 'keep.txt': 'keep\n' };
    const original = strategy === 'git_worktree' ? gitRepo(files) : tempDir('bindery-orig-');
    if (strategy === 'copy_on_write') writeFiles(original, files);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
    const outside = tempDir('bindery-outside-');
    writeFiles(outside, { 'x.txt': 'outside\n' });
    fs.rmSync(path.join(sandbox.path, 'd'), { recursive: true });
    fs.symlinkSync(outside, path.join(sandbox.path, 'd'));
    const { changes } = await manager.changes(sandbox.id);
    expect(changes.map((c) => [c.path, c.kind, c.newType])).toEqual([
      ['d', 'added', 'symlink'],
      ['d/x.txt', 'deleted', null],
    ]);
    const diff = await manager.diff(sandbox.id, 'd/x.txt');
    expect(diff).toMatchObject({ kind: 'text', additions: 0, deletions: 1 });
    expect(diff.kind === 'text' && diff.patch).not.toContain('outside');
  });
});
