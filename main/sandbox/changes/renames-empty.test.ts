import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

describe.each(['git_worktree', 'copy_on_write'] as const)('empty files and renames (%s)', (strategy) => {
  it('never pairs an empty file deleted with one added: each stays its own change', async () => {
    const { manager, plan } = newManager();
    const files = { 'a/__init__.py': '', 'a/mod.py': 'x = 1\n' };
    const original = strategy === 'git_worktree' ? gitRepo(files) : tempDir('bindery-orig-');
    if (strategy === 'copy_on_write') writeFiles(original, files);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
    fs.rmSync(path.join(sandbox.path, 'a/__init__.py'));
    writeFiles(sandbox.path, { 'b/__init__.py': '' });
    const { changes } = await manager.changes(sandbox.id);
    expect(changes.map((c) => [c.path, c.kind, c.oldPath])).toEqual([
      ['a/__init__.py', 'deleted', null],
      ['b/__init__.py', 'added', null],
    ]);
  });
});
