import { describe, expect, it } from 'vitest';
import { gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager, plainDir } from '../../testing/sandbox/harness.ts';
import { parseDiff3, previewMerge } from './merge-preview.ts';

const LINES = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n';

async function conflictOn(strategy: 'git_worktree' | 'copy_on_write', original: string, sandboxText: string) {
  const { manager, plan } = newManager();
  const root = strategy === 'git_worktree' ? gitRepo({ 'm.txt': LINES }) : plainDir({ 'm.txt': LINES });
  const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: root, sandboxStrategy: strategy });
  writeFiles(sandbox.path, { 'm.txt': sandboxText });
  writeFiles(root, { 'm.txt': original });
  return { manager, sandbox };
}

describe('previewMerge', () => {
  it('offers Merge where the edits do not overlap, and writes nothing', async () => {
    const { sandbox } = await conflictOn('git_worktree', LINES.replace('l8', 'PERSON'), LINES.replace('l1', 'TOOL'));
    const preview = await previewMerge(sandbox, 'm.txt', tempDir());
    expect(preview).toMatchObject({ outcome: 'clean', conflicts: 0, reason: null });
    expect(preview.hunks).toEqual([{ kind: 'same', lines: LINES.replace('l1', 'TOOL').replace('l8', 'PERSON').trim().split('\n') }]);
  });

  it('shows base, original and sandbox for overlapping edits, in the words of the dialog', async () => {
    const { sandbox } = await conflictOn('git_worktree', LINES.replace('l4', 'PERSON'), LINES.replace('l4', 'TOOL'));
    const preview = await previewMerge(sandbox, 'm.txt', tempDir());
    expect(preview.outcome).toBe('conflicts');
    expect(preview.reason).toMatch(/1 conflicting hunk\): choose Keep original or Take sandbox/);
    expect(preview.hunks).toEqual([
      { kind: 'same', lines: ['l1', 'l2', 'l3'] },
      { kind: 'conflict', base: ['l4'], original: ['PERSON'], sandbox: ['TOOL'] },
      { kind: 'same', lines: ['l5', 'l6', 'l7', 'l8'] },
    ]);
  });

  it('says why there is no merge when a copy lost its base', async () => {
    const { sandbox } = await conflictOn('copy_on_write', LINES.replace('l8', 'PERSON'), LINES.replace('l1', 'TOOL'));
    const preview = await previewMerge(sandbox, 'm.txt', tempDir());
    expect(preview).toMatchObject({ outcome: 'unavailable', hunks: null, reason: expect.stringMatching(/base is not known/) });
  });
});

describe('parseDiff3', () => {
  it('keeps a line that only looks like a marker outside a conflict', () => {
    expect(parseDiff3('=======\na\n<<<<<<< original/x\no\n||||||| base/x\nb\n=======\ns\n>>>>>>> sandbox/x\n')).toEqual([
      { kind: 'same', lines: ['=======', 'a'] },
      { kind: 'conflict', original: ['o'], base: ['b'], sandbox: ['s'] },
    ]);
  });
});
