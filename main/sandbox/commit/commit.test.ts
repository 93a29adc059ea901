import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../../shared/errors.ts';
import { git, gitRepo, writeFiles } from '../../testing/fixtures.ts';
import { decodeName, inRoot } from '../fs/index.ts';
import * as journal from './journal/index.ts';
import { SandboxManager } from '../sandbox-manager.ts';
import { caught, exists, listActivity, newManager, plainDir, readText as read } from '../../testing/sandbox/harness.ts';

describe('commit', () => {
  it('commits every change under a folder given with a trailing slash, renames out of it included', async () => {
    const { manager, plan } = newManager();
    const original = plainDir({ 'src/a.txt': 'a\n', 'src/deep/b.txt': 'b\n', 'src-old.txt': 'x\n', 'top.txt': 't\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'src/deep/b.txt': 'B\n', 'top.txt': 'T\n', 'src-old.txt': 'X\n' });
    fs.renameSync(path.join(sandbox.path, 'src/a.txt'), path.join(sandbox.path, 'moved-a.txt'));
    const error = await caught(manager.commit(sandbox.id, { paths: ['nope/'] }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/nope\/ has no change/);
    // src-old.txt shares the prefix "src" but is not under src/.
    const outcome = await manager.commit(sandbox.id, { paths: ['src/'] });
    expect(outcome).toMatchObject({ kind: 'committed', commit: { written: ['moved-a.txt', 'src/deep/b.txt'], deleted: ['src/a.txt'] } });
    expect(read(original, 'top.txt')).toBe('t\n');
    expect(read(original, 'src-old.txt')).toBe('x\n');
  });

  it.each(['copy_on_write', 'git_worktree'] as const)('removes a folder the sandbox removed once the commit empties it, and undo brings it back (%s)', async (strategy) => {
    const { manager, plan } = newManager();
    const files = { 'docs/old/a.md': 'a\n', 'docs/old/deep/b.md': 'b\n', 'docs/kept/c.md': 'c\n', 'top.txt': 't\n' };
    const original = strategy === 'git_worktree' ? gitRepo(files) : plainDir(files);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
    // The tool removes docs/old entirely, but only the file in docs/kept (its folder stays).
    fs.rmSync(path.join(sandbox.path, 'docs/old'), { recursive: true });
    fs.rmSync(path.join(sandbox.path, 'docs/kept/c.md'));
    expect((await manager.commit(sandbox.id)).kind).toBe('committed');
    expect(exists(path.join(original, 'docs/old'))).toBe(false);
    expect(fs.readdirSync(path.join(original, 'docs'))).toEqual(['kept']);
    if (strategy === 'git_worktree') expect(git(original, 'status', '--porcelain').split('\n').map((line) => line.trim()).filter(Boolean).sort()).toEqual(['D docs/kept/c.md', 'D docs/old/a.md', 'D docs/old/deep/b.md']);

    await manager.undo(sandbox.id);
    expect(read(original, 'docs/old/a.md')).toBe('a\n');
    expect(read(original, 'docs/old/deep/b.md')).toBe('b\n');
    expect(read(original, 'docs/kept/c.md')).toBe('c\n');
  });

  it('applies all changes of a copy (added, modified, deleted, renamed, symlink) and can undo them', async () => {
    const { manager, plan } = newManager();
    const original = plainDir();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n', 'dir/new.txt': 'new\n' });
    fs.rmSync(path.join(sandbox.path, 'b.txt'));
    fs.renameSync(path.join(sandbox.path, 'c.txt'), path.join(sandbox.path, 'c2.txt'));
    fs.symlinkSync('a.txt', path.join(sandbox.path, 'link'));
    const outcome = await manager.commit(sandbox.id);
    expect(outcome.kind).toBe('committed');
    expect(read(original, 'a.txt')).toBe('A\n');
    expect(read(original, 'dir/new.txt')).toBe('new\n');
    expect(read(original, 'c2.txt')).toBe('c\n');
    expect(exists(path.join(original, 'b.txt')) || exists(path.join(original, 'c.txt'))).toBe(false);
    expect(fs.readlinkSync(path.join(original, 'link'))).toBe('a.txt');
    expect(manager.sandbox(sandbox.id).status).toBe('committed');
    expect((await manager.changes(sandbox.id)).changes.every((c) => c.drift === 'applied')).toBe(true);
    const again = await manager.commit(sandbox.id);
    expect(again).toMatchObject({ kind: 'nothing' });

    await manager.undo(sandbox.id);
    expect(read(original, 'a.txt')).toBe('a\n');
    expect(read(original, 'b.txt')).toBe('b\n');
    expect(read(original, 'c.txt')).toBe('c\n');
    expect(exists(path.join(original, 'dir/new.txt'))).toBe(false);
    expect(exists(path.join(original, 'link'))).toBe(false);
    await expect(manager.undo(sandbox.id)).rejects.toThrow(/no commit to undo/);
  });

  it('commits only the selected paths', async () => {
    const { manager, plan } = newManager();
    const original = plainDir();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    await manager.commit(sandbox.id, { paths: ['b.txt'] });
    expect([read(original, 'a.txt'), read(original, 'b.txt')]).toEqual(['a\n', 'B\n']);
    await expect(manager.commit(sandbox.id, { paths: ['nope.txt'] })).rejects.toBeInstanceOf(ValidationError);
  });

  it('blocks conflicting paths at check time until resolved: ours, theirs, merge', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'ours.txt': 'o\n', 'theirs.txt': 't\n', 'merge.txt': 'l1\nl2\nl3\nl4\nl5\n', 'clean.txt': 'c\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'ours.txt': 'o sandbox\n', 'theirs.txt': 't sandbox\n', 'merge.txt': 'l1\nl2\nl3\nl4\nL5 sandbox\n', 'clean.txt': 'C\n' });
    writeFiles(repo, { 'ours.txt': 'o user\n', 'theirs.txt': 't user\n', 'merge.txt': 'L1 user\nl2\nl3\nl4\nl5\n' });
    const blocked = await caught(manager.commit(sandbox.id));
    expect(blocked).toBeInstanceOf(ConflictError);
    expect((blocked as ConflictError).code).toBe('conflict');
    expect(((blocked as ConflictError).details as { paths: Array<{ path: string }> }).paths.map((p) => p.path).sort()).toEqual(['merge.txt', 'ours.txt', 'theirs.txt']);
    expect(read(repo, 'clean.txt')).toBe('c\n');

    await manager.commit(sandbox.id, { resolutions: { 'ours.txt': 'ours', 'theirs.txt': 'theirs', 'merge.txt': 'merge' } });
    expect(read(repo, 'ours.txt')).toBe('o user\n');
    expect(read(repo, 'theirs.txt')).toBe('t sandbox\n');
    expect(read(repo, 'merge.txt')).toBe('L1 user\nl2\nl3\nl4\nL5 sandbox\n');
    expect(read(repo, 'clean.txt')).toBe('C\n');
    expect(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
  });

  it('refuses a merge with overlapping edits and writes nothing', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'm.txt': 'same line\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'm.txt': 'sandbox line\n' });
    writeFiles(repo, { 'm.txt': 'user line\n' });
    await expect(manager.commit(sandbox.id, { resolutions: { 'm.txt': 'merge' } })).rejects.toThrow(/conflicting hunk/);
    expect(read(repo, 'm.txt')).toBe('user line\n');
  });

  it('refuses to merge a file that became binary in the original, saying to choose ours or theirs', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'm.txt': 'l1\nl2\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'm.txt': 'l1\nL2\n' });
    fs.writeFileSync(path.join(repo, 'm.txt'), Buffer.from([0, 1, 2, 10]));
    await expect(manager.commit(sandbox.id, { resolutions: { 'm.txt': 'merge' } })).rejects.toThrow(ValidationError);
    await expect(manager.commit(sandbox.id, { resolutions: { 'm.txt': 'merge' } })).rejects.toThrow(/Choose Keep original \(ours\) or Take sandbox \(theirs\)/);
  });

  it('stops when the original changes between the check and the write, writing nothing', async () => {
    const { dataDir, plan, store } = newManager();
    const original = plainDir();
    const racing = new SandboxManager({
      store,
      dataDir,
      journal: {
        ...journal,
        applyTransaction: async (input) => {
          writeFiles(original, { 'b.txt': 'user typed meanwhile\n' });
          return journal.applyTransaction(input);
        },
      },
    });
    const sandbox = await racing.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const error = await caught(racing.commit(sandbox.id));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toMatch(/between the check and the write/);
    expect(read(original, 'a.txt')).toBe('a\n');
    expect(read(original, 'b.txt')).toBe('user typed meanwhile\n');
  });

  it('hands the journal the hash and stat of each file change detection read, so it need not read them again', async () => {
    const { dataDir, plan, store } = newManager();
    const original = plainDir();
    const handed: journal.TransactionOp[] = [];
    const watching = new SandboxManager({
      store,
      dataDir,
      journal: { ...journal, applyTransaction: (input) => (handed.push(...input.ops), journal.applyTransaction(input)) },
    });
    const sandbox = await watching.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n' });
    const statOf = (file: string) => {
      const { ino, size, mtimeMs, ctimeMs } = fs.lstatSync(file);
      return { ino, size, mtimeMs, ctimeMs, hashedAtMs: expect.any(Number) };
    };
    const seenOriginal = statOf(path.join(original, 'a.txt'));
    const seenSandbox = statOf(path.join(sandbox.path, 'a.txt'));
    await watching.commit(sandbox.id);
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(handed).toEqual([
      {
        relPath: 'a.txt',
        kind: 'write',
        sourcePath: path.join(sandbox.path, 'a.txt'),
        mode: expect.any(Number),
        sourceContent: { sha256: sha('A\n'), seen: seenSandbox },
        expect: { kind: 'file', sha256: sha('a\n'), seen: seenOriginal },
      },
    ]);
  });

  it('commits and undoes files whose names are not UTF-8', async () => {
    const { manager, plan } = newManager();
    const original = plainDir();
    const bad = decodeName(Buffer.from([0x66, 0xff, 0x2e, 0x74]));
    fs.writeFileSync(inRoot(original, bad), 'old\n');
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    fs.writeFileSync(inRoot(sandbox.path, bad), 'new\n');
    fs.writeFileSync(inRoot(sandbox.path, `added ${bad}`), 'added\n');
    const outcome = await manager.commit(sandbox.id);
    expect(outcome.kind === 'committed' && [...outcome.commit.written].sort()).toEqual([`added ${bad}`, bad]);
    expect(fs.readFileSync(inRoot(original, bad), 'utf8')).toBe('new\n');
    expect(fs.readFileSync(inRoot(original, `added ${bad}`), 'utf8')).toBe('added\n');
    await manager.undo(sandbox.id);
    expect(fs.readFileSync(inRoot(original, bad), 'utf8')).toBe('old\n');
    expect(fs.existsSync(inRoot(original, `added ${bad}`))).toBe(false);
  });

  it('commits on the current branch with a message, through a temporary index', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', 'other.txt': 'o\n' });
    writeFiles(repo, { 'other.txt': 'user edit, not committed\n' });
    const headBefore = git(repo, 'rev-parse', 'HEAD').trim();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n', 'new.txt': 'n\n' });
    const outcome = await manager.commit(sandbox.id, { paths: ['a.txt', 'new.txt'], gitCommit: { message: 'Apply the tool' } });
    expect(outcome.kind === 'committed' && outcome.commit.gitCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Apply the tool');
    expect(git(repo, 'rev-parse', 'HEAD~1').trim()).toBe(headBefore);
    expect(git(repo, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(['a.txt', 'new.txt']);
    expect(git(repo, 'status', '--porcelain')).toBe(' M other.txt\n');
  });

  it('leaves files git ignores and does not track out of the branch commit, and says so', async () => {
    const { manager, plan, db } = newManager();
    const repo = gitRepo({ '.gitignore': '.env\n', 'a.txt': 'a\n' });
    writeFiles(repo, { '.env': 'SECRET=1\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { '.env': 'SECRET=2\n', 'a.txt': 'A\n' });
    await manager.commit(sandbox.id, { gitCommit: { message: 'apply' } });
    expect(read(repo, '.env')).toBe('SECRET=2\n');
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n')).toEqual(['a.txt']);
    expect(git(repo, 'ls-files').trim().split('\n').sort()).toEqual(['.gitignore', 'a.txt']);
    expect(listActivity(db, { planId: sandbox.planId })[0]?.message).toMatch(/1 ignored file\(s\) left out of it: \.env/);
  });
});
