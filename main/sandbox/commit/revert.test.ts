import { describe, expect, it } from 'vitest';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager, readText as read } from '../../testing/sandbox/harness.ts';
import { revertGitCommit } from './revert.ts';

/** A repo with a Bindery commit that made a git commit, then undone: the state the revert is offered in. */
async function committedThenUndone(files: Record<string, string>, edits: Record<string, string>) {
  const { manager, plan } = newManager();
  const repo = gitRepo(files);
  const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
  writeFiles(sandbox.path, edits);
  const outcome = await manager.commit(sandbox.id, { gitCommit: { message: 'Apply the tool' } });
  const sha = outcome.kind === 'committed' ? outcome.commit.gitCommit! : '';
  const undone = await manager.undo(sandbox.id);
  expect(undone.gitCommit).toBe(sha);
  return { repo, sha };
}

describe('revertGitCommit', () => {
  it('reverts the commit HEAD is, after the undo, without touching the working tree', async () => {
    const { repo, sha } = await committedThenUndone({ 'a.txt': 'a\n', 'b.txt': 'b\n' }, { 'a.txt': 'A\n', 'new.txt': 'n\n' });
    // Plain `git revert` refuses here: the undo restored the files, which now differ from the index.
    expect(() => git(repo, 'revert', '--no-edit', sha)).toThrow();
    const outcome = await revertGitCommit(repo, sha, tempDir());
    expect(outcome.kind).toBe('reverted');
    expect(git(repo, 'log', '-1', '--format=%B').trim()).toBe(`Revert "Apply the tool"\n\nThis reverts commit ${sha}.`);
    expect(git(repo, 'rev-parse', 'HEAD^{tree}')).toBe(git(repo, 'rev-parse', 'HEAD~2^{tree}'));
    expect(outcome.kind === 'reverted' && outcome.paths.sort()).toEqual(['a.txt', 'new.txt']);
    expect(read(repo, 'a.txt')).toBe('a\n');
    // Working tree, index and HEAD agree again.
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('reverts cleanly over later commits that touched other lines, and leaves staged work alone', async () => {
    const lines = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n';
    const { repo, sha } = await committedThenUndone({ 'm.txt': lines, 's.txt': 's\n' }, { 'm.txt': lines.replace('l1', 'TOOL'), 's.txt': 'S\n' });
    writeFiles(repo, { 'm.txt': lines.replace('l1', 'TOOL').replace('l8', 'PERSON') });
    git(repo, 'commit', '-q', '-am', 'person');
    writeFiles(repo, { 'm.txt': lines.replace('l8', 'PERSON') });
    // The person staged their own s.txt in the meantime.
    writeFiles(repo, { 's.txt': 'staged\n' });
    git(repo, 'add', 's.txt');
    const outcome = await revertGitCommit(repo, sha, tempDir());
    expect(outcome.kind).toBe('reverted');
    expect(git(repo, 'show', 'HEAD:m.txt')).toBe(lines.replace('l8', 'PERSON'));
    expect(git(repo, 'show', 'HEAD:s.txt')).toBe('s\n');
    expect(git(repo, 'show', ':s.txt')).toBe('staged\n');
    expect(git(repo, 'status', '--porcelain')).toBe('M  s.txt\n');
  });

  it('refuses, saying why, when later commits changed the same lines', async () => {
    const { repo, sha } = await committedThenUndone({ 'a.txt': 'a\n' }, { 'a.txt': 'A\n' });
    writeFiles(repo, { 'a.txt': 'A person\n' });
    git(repo, 'commit', '-q', '-am', 'person');
    const head = git(repo, 'rev-parse', 'HEAD');
    const outcome = await revertGitCommit(repo, sha, tempDir());
    expect(outcome).toEqual({ kind: 'refused', reason: expect.stringMatching(/changed a\.txt again after git commit .* does not apply cleanly/) });
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('refuses a commit that is not on the current branch', async () => {
    const { repo, sha } = await committedThenUndone({ 'a.txt': 'a\n' }, { 'a.txt': 'A\n' });
    git(repo, 'branch', 'other', 'HEAD~1');
    git(repo, 'symbolic-ref', 'HEAD', 'refs/heads/other');
    const outcome = await revertGitCommit(repo, sha, tempDir());
    expect(outcome).toEqual({ kind: 'refused', reason: expect.stringMatching(/not on the current branch \(other\)/) });
  });
});
