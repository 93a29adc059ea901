import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../../shared/errors.ts';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { decodeName, inRoot } from '../fs/paths.ts';
import * as journal from './journal/index.ts';
import { SandboxManager } from '../sandbox-manager.ts';
import { exists, listActivity, newManager } from '../../testing/sandbox/harness.ts';

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

function plainDir(files: Record<string, string> = { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' }): string {
  const dir = tempDir('bindery-orig-');
  writeFiles(dir, files);
  return dir;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

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
    await expect(manager.commit(sandbox.id, { resolutions: { 'm.txt': 'merge' } })).rejects.toThrow(/Use ours or theirs/);
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

  it.each(['copy_on_write', 'git_worktree'] as const)('takes its own earlier commit in the original for no conflict, but a change made there since for one (%s)', async (strategy) => {
    const { manager, plan } = newManager();
    const original = strategy === 'git_worktree' ? gitRepo({ 'a.txt': 'a\n', 'gone.txt': 'g\n', 'theirs.txt': 't\n' }) : plainDir({ 'a.txt': 'a\n', 'gone.txt': 'g\n', 'theirs.txt': 't\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
    writeFiles(sandbox.path, { 'a.txt': 'A1\n', 'new.txt': 'n1\n', 'theirs.txt': 'T1\n' });
    fs.rmSync(path.join(sandbox.path, 'gone.txt'));
    expect((await manager.commit(sandbox.id)).kind).toBe('committed');
    // The tool works on: the same paths change again, and the deleted one comes back.
    writeFiles(sandbox.path, { 'a.txt': 'A2\n', 'new.txt': 'n2\n', 'gone.txt': 'back\n', 'theirs.txt': 'T2\n' });
    // Meanwhile the person edits one of them in the original.
    writeFiles(original, { 'theirs.txt': 'person\n' });
    const drifts = Object.fromEntries((await manager.changes(sandbox.id)).changes.map((c) => [c.path, c.drift]));
    expect(drifts).toEqual({ 'a.txt': 'clean', 'new.txt': 'clean', 'gone.txt': 'clean', 'theirs.txt': 'conflict' });
    expect((await manager.commit(sandbox.id, { paths: ['a.txt', 'new.txt', 'gone.txt'] })).kind).toBe('committed');
    expect([read(original, 'a.txt'), read(original, 'new.txt'), read(original, 'gone.txt'), read(original, 'theirs.txt')]).toEqual(['A2\n', 'n2\n', 'back\n', 'person\n']);
    // Undone commits no longer count: after undoing the second, the original holds the first again, which is still this sandbox's.
    await manager.undo(sandbox.id);
    writeFiles(sandbox.path, { 'a.txt': 'A3\n' });
    expect((await manager.changes(sandbox.id)).changes.find((c) => c.path === 'a.txt')?.drift).toBe('clean');
  });

  it("takes a person's change after the sandbox's own commit for a conflict, the base put back included", async () => {
    const { manager, plan } = newManager();
    const lines = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n';
    const repo = gitRepo({ 'keep.txt': 'important\n', 'a.txt': 'base\n', 'm.txt': lines, 'other.txt': 'o\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    fs.rmSync(path.join(sandbox.path, 'keep.txt'));
    writeFiles(sandbox.path, { 'a.txt': 'tool 1\n', 'm.txt': lines.replace('l1', 'TOOL1') });
    writeFiles(repo, { 'm.txt': lines.replace('l8', 'PERSON8') });
    expect((await manager.commit(sandbox.id, { resolutions: { 'm.txt': 'merge' } })).kind).toBe('committed');
    // The person takes back what the commit did to keep.txt and a.txt; the merge's result holds a line the sandbox lacks.
    git(repo, 'checkout', '--', 'keep.txt', 'a.txt');
    writeFiles(sandbox.path, { 'a.txt': 'tool 1\ntool 2\n', 'other.txt': 'O\n' });
    const drifts = Object.fromEntries((await manager.changes(sandbox.id)).changes.map((c) => [c.path, c.drift]));
    expect(drifts).toEqual({ 'keep.txt': 'conflict', 'a.txt': 'conflict', 'm.txt': 'conflict', 'other.txt': 'clean' });
    await expect(manager.commit(sandbox.id)).rejects.toBeInstanceOf(ConflictError);
    expect([read(repo, 'keep.txt'), read(repo, 'a.txt'), read(repo, 'm.txt')]).toEqual(['important\n', 'base\n', lines.replace('l1', 'TOOL1').replace('l8', 'PERSON8')]);
  });

  it("reads a sandbox's own commits again only when they changed (change detection asks at every look)", async () => {
    const { manager, plan, store } = newManager();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: plainDir(), sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n' });
    await manager.commit(sandbox.id);
    const first = store.committedStates(sandbox.id);
    expect(first.get('a.txt')).toMatchObject({ kind: 'file', sha256: createHash('sha256').update('A\n').digest('hex') });
    expect(store.committedStates(sandbox.id)).toBe(first);
    await manager.undo(sandbox.id);
    expect(store.committedStates(sandbox.id).size).toBe(0);
  });

  it('takes its own earlier commits as its own again once restored from the trash, not those of a later run in its place', async () => {
    const { manager, plan } = newManager();
    const planId = plan();
    const original = plainDir({ 'a.txt': 'base\n' });
    const first = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(first.path, { 'a.txt': 'first 1\n' });
    await manager.commit(first.id);
    writeFiles(first.path, { 'a.txt': 'first 2\n' });
    const firstDiscard = await manager.discard(first.id, { yes: true });
    // A second run in its place commits too, and is discarded in turn.
    const second = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(second.path, { 'a.txt': 'second 1\n' });
    await manager.commit(second.id);
    writeFiles(second.path, { 'a.txt': 'second 2\n' });
    // Someone looks at the second run's changes, so its own commits are read (and kept) before the discard.
    expect((await manager.changes(second.id)).changes).toMatchObject([{ path: 'a.txt', drift: 'clean' }]);
    await manager.discard(second.id, { yes: true });
    // The original holds the second run's commit: the first run, restored, did not make it.
    await manager.restoreTrash((firstDiscard as { trashId: string }).trashId);
    expect((await manager.changes(first.id)).changes).toMatchObject([{ path: 'a.txt', drift: 'conflict' }]);
    // Once it holds the first run's own commit again, the first run's next edit is clean.
    writeFiles(original, { 'a.txt': 'first 1\n' });
    expect((await manager.changes(first.id)).changes).toMatchObject([{ path: 'a.txt', drift: 'clean' }]);
  });

  it('does not take the commits of a discarded sandbox for those of the one provisioned again in its place', async () => {
    const { manager, plan } = newManager();
    const planId = plan();
    const original = plainDir({ 'a.txt': 'base\n' });
    const first = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(first.path, { 'a.txt': 'first run\n' });
    await manager.commit(first.id);
    writeFiles(original, { 'a.txt': 'person v1\n' });
    await manager.discard(first.id, { yes: true });
    const second = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    expect(second.id).toBe(first.id);
    // The person puts back what the first run left; the second run edits what it was given.
    writeFiles(original, { 'a.txt': 'first run\n' });
    writeFiles(second.path, { 'a.txt': 'person v1\nsecond run\n' });
    expect((await manager.changes(second.id)).changes).toMatchObject([{ path: 'a.txt', drift: 'conflict' }]);
  });

  it('commitAll checks every sandbox first and writes nothing if any has a conflict', async () => {
    const { manager, plan } = newManager();
    const planId = plan();
    const one = plainDir();
    const two = plainDir();
    const s1 = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: one, sandboxStrategy: 'copy_on_write' });
    const s2 = await manager.getOrCreateSandbox({ planId, resourceId: 'R2', originalPath: two, sandboxStrategy: 'copy_on_write' });
    writeFiles(s1.path, { 'a.txt': 'A1\n' });
    writeFiles(s2.path, { 'a.txt': 'A2\n' });
    writeFiles(two, { 'a.txt': 'user\n' });
    await expect(manager.commitAll(planId)).rejects.toBeInstanceOf(ConflictError);
    expect(read(one, 'a.txt')).toBe('a\n');
    const outcomes = await manager.commitAll(planId, { resolutions: { 'a.txt': 'theirs' } });
    expect(outcomes.map((o) => o.kind)).toEqual(['committed', 'committed']);
    expect([read(one, 'a.txt'), read(two, 'a.txt')]).toEqual(['A1\n', 'A2\n']);
  });

  it('commitAll takes a resolution for a path only some sandboxes changed, and refuses one that names no change', async () => {
    const { manager, plan } = newManager();
    const planId = plan();
    const one = plainDir();
    const two = plainDir();
    const s1 = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: one, sandboxStrategy: 'copy_on_write' });
    await manager.getOrCreateSandbox({ planId, resourceId: 'R2', originalPath: two, sandboxStrategy: 'copy_on_write' });
    writeFiles(s1.path, { 'a.txt': 'A1\n' });
    writeFiles(one, { 'a.txt': 'user\n' });
    await expect(manager.commitAll(planId, { resolutions: { 'a.txt': 'theirs', 'typo.txt': 'ours' } })).rejects.toThrow(/--resolve names typo\.txt/);
    const outcomes = await manager.commitAll(planId, { resolutions: { 'a.txt': 'theirs' } });
    expect(outcomes.map((o) => o.kind)).toEqual(['committed', 'nothing']);
    expect(read(one, 'a.txt')).toBe('A1\n');
  });

  it('keeps the permissions of a worktree original that the tool did not change, and applies an executable bit it did', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'secret.json': '{"k":1}\n', 'shared.txt': 's\n', 'tool.sh': 'echo\n', 'run.sh': 'l1\nl2\nl3\nl4\nl5\n' });
    fs.chmodSync(path.join(repo, 'secret.json'), 0o600);
    fs.chmodSync(path.join(repo, 'shared.txt'), 0o664);
    fs.chmodSync(path.join(repo, 'tool.sh'), 0o640);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'secret.json': '{"k":2}\n', 'shared.txt': 'S\n', 'run.sh': 'l1\nl2\nl3\nl4\nL5\n' });
    fs.chmodSync(path.join(sandbox.path, 'tool.sh'), 0o755);
    // Meanwhile the person edits line 1 of run.sh and makes it executable: the merge keeps that bit.
    writeFiles(repo, { 'run.sh': 'L1\nl2\nl3\nl4\nl5\n' });
    fs.chmodSync(path.join(repo, 'run.sh'), 0o755);
    expect((await manager.commit(sandbox.id, { resolutions: { 'run.sh': 'merge' } })).kind).toBe('committed');
    const mode = (rel: string) => fs.statSync(path.join(repo, rel)).mode & 0o7777;
    expect([mode('secret.json'), mode('shared.txt'), mode('tool.sh'), mode('run.sh')]).toEqual([0o600, 0o664, 0o750, 0o755]);
    expect(read(repo, 'run.sh')).toBe('L1\nl2\nl3\nl4\nL5\n');
  });

  it('gives a copy original the mode the tool set, and keeps one the person set meanwhile', async () => {
    const { manager, plan } = newManager();
    const original = plainDir({ 'chmod-by-tool.txt': 'a\n', 'chmod-by-person.txt': 'b\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    fs.chmodSync(path.join(sandbox.path, 'chmod-by-tool.txt'), 0o600);
    writeFiles(sandbox.path, { 'chmod-by-person.txt': 'B\n' });
    fs.chmodSync(path.join(original, 'chmod-by-person.txt'), 0o640);
    await manager.commit(sandbox.id, { resolutions: { 'chmod-by-person.txt': 'theirs' } });
    expect(fs.statSync(path.join(original, 'chmod-by-tool.txt')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(original, 'chmod-by-person.txt')).mode & 0o777).toBe(0o640);
    expect(read(original, 'chmod-by-person.txt')).toBe('B\n');
  });

  it('write_only commits add and replace files but never delete; read_only cannot be committed', async () => {
    const { manager, plan } = newManager();
    const original = plainDir();
    const wo = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write', access: 'write_only' });
    writeFiles(wo.path, { 'a.txt': 'replaced\n', 'report.txt': 'out\n' });
    await manager.commit(wo.id);
    expect([read(original, 'a.txt'), read(original, 'b.txt'), read(original, 'report.txt')]).toEqual(['replaced\n', 'b\n', 'out\n']);
    const ro = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write', access: 'read_only' });
    await expect(manager.commit(ro.id)).rejects.toThrow(/read_only and cannot be committed/);
  });
});
