import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCounts, type ChangeCountsInfo } from '../../../shared/dto.ts';
import { UnsafePathError } from '../../../shared/errors.ts';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { metaDir } from '../provision/index.ts';
import { exists, gitFingerprint, newManager } from '../../testing/sandbox/harness.ts';

function plainDir(): string {
  const dir = tempDir('bindery-orig-');
  writeFiles(dir, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
  return dir;
}

describe('discard and trash', () => {
  it('asks for confirmation with counts, then moves the changes to a trash entry that restores', async () => {
    const { manager, plan } = newManager();
    const original = plainDir();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n', 'c.txt': 'c\n' });
    const asked = await manager.discard(sandbox.id);
    expect(asked).toMatchObject({ kind: 'needs_confirmation', counts: { total: 2, added: 1, modified: 1 } });
    expect(exists(sandbox.path)).toBe(true);

    const done = await manager.discard(sandbox.id, { yes: true });
    expect(done).toMatchObject({ kind: 'discarded', counts: { total: 2 } });
    expect(exists(sandbox.path)).toBe(false);
    const [entry] = manager.listTrash();
    expect(entry).toMatchObject({ sandboxId: sandbox.id, counts: { total: 2 } });
    expect(Date.parse(entry!.expiresAt) - Date.parse(entry!.createdAt)).toBe(7 * 86_400_000);

    const restored = await manager.restoreTrash(entry!.id);
    expect(restored.status).toBe('ready');
    expect(fs.readFileSync(path.join(sandbox.path, 'a.txt'), 'utf8')).toBe('A\n');
    expect((await manager.changes(sandbox.id)).changes.map((c) => c.path)).toEqual(['a.txt', 'c.txt']);
    expect(manager.listTrash()).toEqual([]);
    expect(fs.readFileSync(path.join(original, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('restores a worktree sandbox at its base with its changes, and discards a clean one without trash', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const before = gitFingerprint(repo);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n', 'new.txt': 'n\n' });
    fs.rmSync(path.join(sandbox.path, 'b.txt'));
    const done = await manager.discard(sandbox.id, { yes: true });
    expect(done).toMatchObject({ kind: 'discarded', counts: { total: 3 } });
    expect(gitFingerprint(repo)).toEqual(before);
    const restored = await manager.restoreTrash((done as { trashId: string }).trashId);
    expect(restored.strategy).toBe('git_worktree');
    expect((await manager.changes(sandbox.id)).changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['modified a.txt', 'deleted b.txt', 'added new.txt']);

    const clean = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(await manager.discard(clean.id)).toMatchObject({ kind: 'discarded', trashId: null });
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(2);
  });

  it('refuses when changes cannot be determined ("unknown is not clean") unless forced', async () => {
    const { manager, plan } = newManager();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: plainDir(), sandboxStrategy: 'copy_on_write' });
    fs.rmSync(path.join(metaDir(sandbox.path), 'manifest.sealed'));
    expect(await manager.discard(sandbox.id, { yes: true })).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/could not be determined/) });
    expect(exists(sandbox.path)).toBe(true);
    expect(await manager.discard(sandbox.id, { yes: true, force: true })).toMatchObject({ kind: 'discarded', counts: null });
    expect(manager.listTrash()).toHaveLength(1);
  });

  it('force-discarding a worktree sandbox whose changes are unknown keeps its whole tree in the trash, and restores it', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', 'd/b.txt': 'b\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'a.txt': 'precious edit\n', 'new/work.txt': 'new work\n' });
    fs.rmSync(path.join(sandbox.path, 'd', 'b.txt'));
    fs.mkdirSync(path.join(sandbox.path, 'empty'));
    fs.writeFileSync(path.join(git(sandbox.path, 'rev-parse', '--absolute-git-dir').trim(), 'index'), 'garbage');
    expect(await manager.discard(sandbox.id, { yes: true })).toMatchObject({ kind: 'unknown' });

    const done = (await manager.discard(sandbox.id, { yes: true, force: true })) as { kind: string; trashId: string };
    expect(done).toMatchObject({ kind: 'discarded', counts: null });
    expect(exists(sandbox.path)).toBe(false);
    const entry = manager.listTrash().find((e) => e.id === done.trashId)!;
    expect(fs.readdirSync(path.join(entry.trashPath, 'files')).sort()).toEqual(['a.txt', 'd', 'empty', 'new']);

    await manager.restoreTrash(done.trashId);
    expect(fs.readFileSync(path.join(sandbox.path, 'a.txt'), 'utf8')).toBe('precious edit\n');
    expect(fs.readFileSync(path.join(sandbox.path, 'new', 'work.txt'), 'utf8')).toBe('new work\n');
    expect(exists(path.join(sandbox.path, 'd', 'b.txt'))).toBe(false);
    expect(exists(path.join(sandbox.path, 'empty'))).toBe(true);
    expect((await manager.changes(sandbox.id)).changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['modified a.txt', 'deleted d/b.txt', 'added new/work.txt']);
  });

  it('discards a missing worktree sandbox whose folder is back like a live one: confirmation, then trash', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'new.txt': 'new work\n' });
    const away = `${sandbox.path}-away`;
    fs.renameSync(sandbox.path, away);
    await manager.recover();
    expect(manager.sandbox(sandbox.id).status).toBe('missing');
    fs.renameSync(away, sandbox.path);

    expect(await manager.discard(sandbox.id)).toMatchObject({ kind: 'needs_confirmation', counts: { total: 1 } });
    expect(exists(path.join(sandbox.path, 'new.txt'))).toBe(true);
    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    await manager.restoreTrash(done.trashId);
    expect(fs.readFileSync(path.join(sandbox.path, 'new.txt'), 'utf8')).toBe('new work\n');
  });

  it('discards a missing worktree sandbox whose folder stays away by dropping only its worktree entry and ref', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const before = gitFingerprint(repo);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'new.txt': 'new work\n' });
    const away = `${sandbox.path}-away`;
    fs.renameSync(sandbox.path, away);
    await manager.recover();

    expect(await manager.discard(sandbox.id)).toMatchObject({ kind: 'discarded', trashId: null });
    expect(gitFingerprint(repo)).toEqual(before);
    expect(fs.readFileSync(path.join(away, 'new.txt'), 'utf8')).toBe('new work\n');
  });

  it('deletes only registered, marked folders under the sandboxes root', async () => {
    const { manager, plan, store } = newManager();
    const original = plainDir();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    store.saveSandbox({ ...manager.sandbox(sandbox.id), path: original });
    await expect(manager.discard(sandbox.id, { yes: true, force: true })).rejects.toBeInstanceOf(UnsafePathError);
    expect(fs.readFileSync(path.join(original, 'a.txt'), 'utf8')).toBe('a\n');
    store.saveSandbox({ ...manager.sandbox(sandbox.id), path: sandbox.path });
    fs.rmSync(metaDir(sandbox.path), { recursive: true });
    await expect(manager.discard(sandbox.id, { yes: true, force: true })).rejects.toThrow(/marker/);
    expect(exists(sandbox.path)).toBe(true);
  });

  it('purges entries past their date, or all', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const { manager, plan } = newManager({ trashDays: 2, now: () => now });
    for (const resourceId of ['R1', 'R2']) {
      const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId, originalPath: plainDir(), sandboxStrategy: 'copy_on_write' });
      writeFiles(sandbox.path, { 'x.txt': resourceId });
      await manager.discard(sandbox.id, { yes: true });
      now = new Date('2026-01-02T00:00:00Z');
    }
    now = new Date('2026-01-03T12:00:00Z');
    const purged = await manager.purgeTrash();
    expect(purged).toHaveLength(1);
    expect(exists(purged[0]!.trashPath)).toBe(false);
    expect(manager.listTrash()).toHaveLength(1);
    expect(await manager.purgeTrash({ all: true })).toHaveLength(1);
    expect(manager.listTrash()).toEqual([]);
  });
});

describe('recovery at start', () => {
  it('marks vanished sandboxes missing, lists orphans without deleting them, removes abandoned provisions', async () => {
    const { manager, plan, store } = newManager();
    const planId = plan();
    const gone = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: plainDir(), sandboxStrategy: 'copy_on_write' });
    const kept = await manager.getOrCreateSandbox({ planId, resourceId: 'R2', originalPath: plainDir(), sandboxStrategy: 'copy_on_write' });
    fs.rmSync(gone.path, { recursive: true });
    const orphan = path.join(manager.layout.root, 'SOMEPLAN', 'stray');
    writeFiles(orphan, { 'keep-me.txt': 'mine' });
    const half = await manager.getOrCreateSandbox({ planId, resourceId: 'R3', originalPath: plainDir(), sandboxStrategy: 'copy_on_write' });
    store.setStatus(half.id, 'provisioning', new Date().toISOString());
    const marker = path.join(metaDir(half.path), 'marker.json');
    fs.writeFileSync(marker, JSON.stringify({ ...JSON.parse(fs.readFileSync(marker, 'utf8')), pid: 2 ** 22 + 12345 }));

    const report = await manager.recover();
    expect(report.missing.map((m) => m.sandboxId)).toEqual([gone.id]);
    expect(manager.sandbox(gone.id).status).toBe('missing');
    expect(manager.sandbox(kept.id).status).toBe('ready');
    expect(report.orphans).toEqual([orphan]);
    expect(fs.readFileSync(path.join(orphan, 'keep-me.txt'), 'utf8')).toBe('mine');
    expect(report.abandoned.map((a) => a.sandboxId)).toEqual([half.id]);
    expect(exists(half.path)).toBe(false);
    expect(manager.planSandboxes(planId).map((s) => s.id)).toEqual([gone.id, kept.id]);
    expect(await manager.discard(gone.id)).toMatchObject({ kind: 'discarded' });
  });
});

describe('ignored files a tool made in a worktree sandbox', () => {
  it('are counted for the confirmation, kept in the trash and restored', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', '.gitignore': '.env\nbuild/\n' });
    writeFiles(repo, { '.env': 'SECRET=original\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(exists(path.join(sandbox.path, '.env'))).toBe(false);
    writeFiles(sandbox.path, { '.env': 'SECRET=made by the tool\n', 'build/app.js': 'app\n', 'build/lib/x.js': 'x\n' });

    const asked = await manager.discard(sandbox.id);
    expect(asked).toMatchObject({ kind: 'needs_confirmation', counts: { total: 0, ignored: 2 } });
    expect(describeCounts((asked as { counts: ChangeCountsInfo }).counts)).toBe('0 changes and 2 ignored files');
    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    expect(exists(sandbox.path)).toBe(false);
    expect(manager.listTrash()[0]!.counts).toMatchObject({ ignored: 2 });

    await manager.restoreTrash(done.trashId);
    expect(fs.readFileSync(path.join(sandbox.path, '.env'), 'utf8')).toBe('SECRET=made by the tool\n');
    expect(fs.readFileSync(path.join(sandbox.path, 'build', 'lib', 'x.js'), 'utf8')).toBe('x\n');
    expect(fs.readFileSync(path.join(repo, '.env'), 'utf8')).toBe('SECRET=original\n');
    expect((await manager.changes(sandbox.id)).changes).toEqual([]);
  });
});
