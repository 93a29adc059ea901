import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../shared/errors.ts';
import { git, gitRepo, writeFiles } from '../../testing/fixtures.ts';
import { newManager, plainDir, readText as read } from '../../testing/sandbox/harness.ts';

describe('commit: its own commits, whole plans, modes and access', () => {
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

  it('commits again over its own commit in a repository that converts line endings, and still sees a person\'s edit after it', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ '.gitattributes': '*.txt text eol=crlf\n', 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n' });
    // As a checkout would leave them: CRLF endings in the work tree, LF in the blobs.
    writeFiles(repo, { 'a.txt': 'one\r\ntwo\r\n', 'b.txt': 'b\r\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect((await manager.changes(sandbox.id)).changes).toEqual([]);
    writeFiles(sandbox.path, { 'a.txt': 'one\r\nTWO\r\n', 'b.txt': 'B1\r\n' });
    expect((await manager.commit(sandbox.id, { paths: ['a.txt', 'b.txt'] })).kind).toBe('committed');
    // The original holds the sandbox's own commit (its bytes differ from the base blob's): that commit, not git's filters, says it is untouched.
    writeFiles(sandbox.path, { 'a.txt': 'one\r\nTWO\r\nthree\r\n', 'b.txt': 'B2\r\n' });
    writeFiles(repo, { 'b.txt': 'person\r\n' });
    const drifts = Object.fromEntries((await manager.changes(sandbox.id)).changes.map((c) => [c.path, c.drift]));
    expect(drifts).toEqual({ 'a.txt': 'clean', 'b.txt': 'conflict' });
    await expect(manager.commit(sandbox.id, { paths: ['b.txt'] })).rejects.toBeInstanceOf(ConflictError);
    expect((await manager.commit(sandbox.id, { paths: ['a.txt'] })).kind).toBe('committed');
    expect([read(repo, 'a.txt'), read(repo, 'b.txt')]).toEqual(['one\r\nTWO\r\nthree\r\n', 'person\r\n']);
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
    await expect(manager.commitAll(planId, { resolutions: { 'a.txt': 'theirs', 'typo.txt': 'ours' } })).rejects.toThrow(/A conflict choice names typo\.txt, which is not among/);
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
