import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitRepo, tempDir, writeFiles } from '../testing/fixtures.ts';
import { inspectOriginal, startInspection, type OriginalRepo } from './git-snapshot.ts';
import { provisionWorktree } from './strategies/git-worktree.ts';
import { exists, gitFingerprint, newManager } from './test-harness.ts';

async function inspected(repo: string): Promise<OriginalRepo> {
  const original = await inspectOriginal(repo);
  if ('reason' in original) throw new Error(original.reason);
  return original;
}

describe('inspectOriginal', () => {
  it('gives HEAD, its tree, clean or dirty, and the ignored files in one look', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n', '.gitignore': '.env\nnode_modules/\n' });
    writeFiles(repo, { '.env': 'SECRET=1\n', 'node_modules/x/index.js': 'x', 'node_modules/y/index.js': 'y' });
    const clean = await inspected(repo);
    expect(clean).toMatchObject({ head: git(repo, 'rev-parse', 'HEAD').trim(), tree: git(repo, 'rev-parse', 'HEAD^{tree}').trim(), dirty: false });
    expect(clean.index).toBe(path.join(repo, '.git', 'index'));
    expect(clean.ignored).toEqual({ sample: ['.env', 'node_modules/'], count: 2 });
    writeFiles(repo, { 'new.txt': 'untracked\n' });
    expect((await inspected(repo)).dirty).toBe(true);
  });

  it('says why a folder cannot host a worktree sandbox', async () => {
    const plain = tempDir('bindery-plain-');
    expect(await inspectOriginal(plain)).toEqual({ reason: expect.stringMatching(/is not a usable git work tree/) });
    const repo = gitRepo({ 'sub/inner.txt': 'i' });
    expect(await inspectOriginal(path.join(repo, 'sub'))).toEqual({ reason: expect.stringMatching(/is inside the work tree .* but is not its root/) });
    const bare = tempDir('bindery-bare-');
    git(bare, 'init', '-q', '--bare');
    expect(await inspectOriginal(bare)).toEqual({ reason: expect.stringMatching(/is a bare repository/) });
  });

  it('has no HEAD in a repository without commits', async () => {
    const repo = tempDir('bindery-empty-repo-');
    git(repo, 'init', '-q');
    writeFiles(repo, { 'first.txt': 'hello\n' });
    expect(await inspected(repo)).toMatchObject({ head: null, tree: null, dirty: true, index: path.join(repo, '.git', 'index') });
  });
});

describe('git_worktree provisioning', () => {
  it('starts a clean original at HEAD itself, reports its ignored files, and changes nothing in .git but the ref and the worktree entry', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n', '.gitignore': '.env\n' });
    writeFiles(repo, { '.env': 'SECRET=1\n' });
    const objectsBefore = git(repo, 'count-objects', '-v');
    const before = gitFingerprint(repo);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox).toMatchObject({ strategy: 'git_worktree', baseCommit: git(repo, 'rev-parse', 'HEAD').trim(), ignoredFiles: ['.env'], ignoredCount: 1 });
    expect(git(repo, 'rev-parse', sandbox.baseRef as string).trim()).toBe(sandbox.baseCommit);
    expect(exists(path.join(sandbox.path, '.env'))).toBe(false);
    expect(fs.readFileSync(path.join(sandbox.path, 'sub/b.txt'), 'utf8')).toBe('b\n');
    expect(git(repo, 'count-objects', '-v')).toBe(objectsBefore);
    const { worktrees: _w, ...withoutWorktrees } = before;
    expect(gitFingerprint(repo, { skipBinderyRefs: true })).toEqual(withoutWorktrees);
    expect(git(repo, 'worktree', 'list', '--porcelain')).toMatch(/locked/);
    await manager.rollback(sandbox.id, { yes: true });
    expect(gitFingerprint(repo)).toEqual(before);
  });

  it('starts at HEAD when the index differs but the working files equal HEAD', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    writeFiles(repo, { 'a.txt': 'staged\n' });
    git(repo, 'add', 'a.txt');
    writeFiles(repo, { 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox.baseCommit).toBe(git(repo, 'rev-parse', 'HEAD').trim());
    expect(git(repo, 'diff', '--cached', '--name-only').trim()).toBe('a.txt');
  });

  it('when the ref cannot be made, removes the worktree it made and leaves the ref that was there', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    writeFiles(repo, { 'a.txt': 'edited\n' });
    git(repo, 'update-ref', 'refs/bindery/P/S', head);
    const worktreesBefore = git(repo, 'worktree', 'list', '--porcelain');
    const sandboxPath = path.join(tempDir('bindery-sandboxes-'), 'app');
    const attempt = provisionWorktree({ repo, inspection: startInspection(repo), sandboxPath, ref: 'refs/bindery/P/S', planId: 'P', tempDir: tempDir('bindery-tmp-') });
    await expect(attempt).rejects.toThrow(/update-ref/);
    expect(git(repo, 'rev-parse', 'refs/bindery/P/S').trim()).toBe(head);
    expect(git(repo, 'worktree', 'list', '--porcelain')).toBe(worktreesBefore);
    expect(exists(sandboxPath)).toBe(false);
  });
});
