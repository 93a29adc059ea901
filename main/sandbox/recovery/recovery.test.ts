import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitRepo, writeFiles } from '../../testing/fixtures.ts';
import { metaDir } from '../provision/index.ts';
import { exists, newManager } from '../../testing/sandbox/harness.ts';
import { copySandboxWithWork, killedAt, pausedAt, worktreeWithWork } from '../../testing/sandbox/trash-crash.ts';

describe('a discard killed mid-way', () => {
  it('before the sandbox moved: recovery keeps the sandbox as it was and drops the half-made entry', async () => {
    const { dataDir, sandbox } = await copySandboxWithWork();
    killedAt(dataDir, 'discard', sandbox.id, 'rename', `${path.sep}files`);
    const restarted = newManager({ dataDir }).manager;
    const report = await restarted.recover();
    expect(report.trash).toEqual([expect.objectContaining({ sandboxId: sandbox.id, outcome: 'kept' })]);
    expect(restarted.sandbox(sandbox.id).status).toBe('ready');
    expect(fs.readFileSync(path.join(sandbox.path, 'work.txt'), 'utf8')).toBe('hours of work\n');
    expect(fs.readdirSync(restarted.layout.trashDir)).toEqual([]);
  });

  it('after the sandbox moved into the trash: recovery finishes it, and the entry restores', async () => {
    const { dataDir, sandbox } = await copySandboxWithWork();
    killedAt(dataDir, 'discard', sandbox.id, 'rename', `${path.sep}meta`);
    const restarted = newManager({ dataDir }).manager;
    const report = await restarted.recover();
    expect(report.missing).toEqual([]);
    expect(restarted.sandbox(sandbox.id).status).toBe('discarded');
    const [entry] = restarted.listTrash();
    expect(report.trash).toEqual([{ trashId: entry!.id, sandboxId: sandbox.id, outcome: 'discarded' }]);
    await restarted.restoreTrash(entry!.id);
    expect(fs.readFileSync(path.join(sandbox.path, 'work.txt'), 'utf8')).toBe('hours of work\n');
    expect((await restarted.changes(sandbox.id)).changes.map((c) => c.path)).toEqual(['work.txt']);
  });

  it('of a worktree whose changes were unknown, before its copy was complete: the worktree is kept', async () => {
    const { manager, plan, dataDir } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'a.txt': 'precious edit\n' });
    fs.writeFileSync(path.join(git(sandbox.path, 'rev-parse', '--absolute-git-dir').trim(), 'index'), 'garbage');
    killedAt(dataDir, 'discard', sandbox.id, 'copyFile');
    const restarted = newManager({ dataDir }).manager;
    expect((await restarted.recover()).trash).toEqual([expect.objectContaining({ outcome: 'kept' })]);
    expect(restarted.sandbox(sandbox.id).status).toBe('ready');
    expect(fs.readFileSync(path.join(sandbox.path, 'a.txt'), 'utf8')).toBe('precious edit\n');
  });
});

describe('a restore killed mid-way', () => {
  it('of a copied sandbox (files moved back, metadata not) is finished by recovery', async () => {
    const { manager, dataDir, sandbox } = await copySandboxWithWork();
    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    killedAt(dataDir, 'restore', done.trashId, 'rename', metaDir(sandbox.path));
    expect(exists(sandbox.path)).toBe(true);

    const restarted = newManager({ dataDir }).manager;
    const report = await restarted.recover();
    expect(report.trash).toEqual([{ trashId: done.trashId, sandboxId: sandbox.id, outcome: 'restored' }]);
    expect(restarted.sandbox(sandbox.id).status).toBe('ready');
    expect(restarted.listTrash()).toEqual([]);
    expect((await restarted.changes(sandbox.id)).changes.map((c) => c.path)).toEqual(['work.txt']);
  });

  it('of a worktree sandbox (made again, files half laid) can be run again', async () => {
    const { manager, plan, dataDir } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    killedAt(dataDir, 'restore', done.trashId, 'copyFile');
    expect(exists(sandbox.path)).toBe(true);

    const restarted = newManager({ dataDir }).manager;
    await restarted.restoreTrash(done.trashId);
    expect((await restarted.changes(sandbox.id)).changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['modified a.txt', 'modified b.txt']);
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(2);
  });

  it('of a worktree, recorded and killed while removing its entry: recovery removes the rest of the entry', async () => {
    const { manager, plan, dataDir } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n', 'new.txt': 'work\n' });
    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    killedAt(dataDir, 'restore', done.trashId, 'rm', path.join(done.trashId, 'files'));

    const restarted = newManager({ dataDir }).manager;
    expect((await restarted.recover()).trash.filter((t) => t.outcome === 'failed')).toEqual([]);
    expect(restarted.sandbox(sandbox.id).status).toBe('ready');
    expect(fs.readdirSync(restarted.layout.trashDir)).toEqual([]);
    expect((await restarted.changes(sandbox.id)).changes.map((c) => `${c.kind} ${c.path}`).sort()).toEqual(['added new.txt', 'modified a.txt']);
  });
});

describe('recovery of sandboxes', () => {
  it('sets a missing sandbox ready again when its marked folder is back', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    const away = `${sandbox.path}-away`;
    fs.renameSync(sandbox.path, away);
    await manager.recover();
    expect(manager.sandbox(sandbox.id).status).toBe('missing');
    fs.renameSync(away, sandbox.path);
    const report = await manager.recover();
    expect(report.returned.map((r) => r.sandboxId)).toEqual([sandbox.id]);
    expect(manager.sandbox(sandbox.id).status).toBe('ready');
  });

  it('keeps the row of a discarded sandbox whose new provision was killed, so its trash entry restores', async () => {
    const { manager, store, sandbox } = await copySandboxWithWork();
    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    const again = await manager.getOrCreateSandbox({ planId: sandbox.planId, resourceId: 'R1', originalPath: sandbox.originalPath, sandboxStrategy: 'copy_on_write' });
    store.setStatus(again.id, 'provisioning', new Date().toISOString());
    const marker = path.join(metaDir(again.path), 'marker.json');
    fs.writeFileSync(marker, JSON.stringify({ ...JSON.parse(fs.readFileSync(marker, 'utf8')), pid: 2 ** 22 + 12345 }));
    const report = await manager.recover();
    expect(report.abandoned.map((a) => a.sandboxId)).toEqual([sandbox.id]);
    expect(manager.sandbox(sandbox.id).status).toBe('discarded');
    await manager.restoreTrash(done.trashId);
    expect(fs.readFileSync(path.join(sandbox.path, 'work.txt'), 'utf8')).toBe('hours of work\n');
  });
});

describe('recovery while another process is at work', () => {
  it('leaves alone a worktree discard a live process is making, so none of its files are lost', async () => {
    const { dataDir, sandbox } = await worktreeWithWork({ 'a.txt': 'A\n', 'b.txt': 'B\n', 'd/c.txt': 'C\n' });
    const discard = await pausedAt(dataDir, 'discard', sandbox.id, 'copyFile', 'b.txt');
    expect((await newManager({ dataDir }).manager.recover()).trash).toEqual([]);
    expect(await discard.finish()).toMatchObject({ ok: { kind: 'discarded' } });

    const restarted = newManager({ dataDir }).manager;
    const [entry] = restarted.listTrash();
    await restarted.restoreTrash(entry!.id);
    expect((await restarted.changes(sandbox.id)).changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['modified a.txt', 'modified b.txt', 'modified d/c.txt']);
  });

  it('leaves alone a copy discard a live process is making, so its entry still restores', async () => {
    const { dataDir, sandbox } = await copySandboxWithWork();
    const discard = await pausedAt(dataDir, 'discard', sandbox.id, 'chmod', sandbox.path);
    expect((await newManager({ dataDir }).manager.recover()).trash).toEqual([]);
    expect(await discard.finish()).toMatchObject({ ok: { kind: 'discarded' } });

    const restarted = newManager({ dataDir }).manager;
    await restarted.restoreTrash(restarted.listTrash()[0]!.id);
    expect(fs.readFileSync(path.join(sandbox.path, 'work.txt'), 'utf8')).toBe('hours of work\n');
  });

  it('leaves alone a worktree restore a live process is making', async () => {
    const { manager, dataDir, sandbox } = await worktreeWithWork({ 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    const restore = await pausedAt(dataDir, 'restore', done.trashId, 'copyFile', 'a.txt');
    expect((await newManager({ dataDir }).manager.recover()).trash).toEqual([]);
    expect(await restore.finish()).toMatchObject({ ok: { status: 'ready' } });

    expect(manager.sandbox(sandbox.id).status).toBe('ready');
    expect(fs.readFileSync(path.join(sandbox.path, 'a.txt'), 'utf8')).toBe('A\n');
    expect(manager.listTrash()).toEqual([]);
  });

  it('a discard whose trash entry vanishes meanwhile fails without making it again, and keeps the sandbox', async () => {
    const { manager, dataDir, sandbox } = await worktreeWithWork({ 'a.txt': 'A\n', 'd/c.txt': 'C\n' });
    // Paused as it makes the folder of d/c.txt in the copy, with a.txt copied.
    const discard = await pausedAt(dataDir, 'discard', sandbox.id, 'mkdir', path.join('files.partial', 'd'));
    fs.rmSync(manager.layout.trashDir, { recursive: true });
    fs.mkdirSync(manager.layout.trashDir);
    expect((await discard.finish()).error).toMatch(/ENOENT/);

    expect(fs.readdirSync(manager.layout.trashDir)).toEqual([]);
    expect(manager.sandbox(sandbox.id).status).toBe('ready');
    expect(fs.readFileSync(path.join(sandbox.path, 'd', 'c.txt'), 'utf8')).toBe('C\n');
  });

  it('a restore removes no folder that took the sandbox path meanwhile', async () => {
    const { manager, dataDir, sandbox } = await worktreeWithWork({ 'a.txt': 'A\n' });
    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    const restore = await pausedAt(dataDir, 'restore', done.trashId, 'writeFile', 'restoring');
    writeFiles(sandbox.path, { 'mine.txt': 'not the restore\'s\n' });
    expect((await restore.finish()).error).toBeDefined();

    expect(fs.readFileSync(path.join(sandbox.path, 'mine.txt'), 'utf8')).toBe('not the restore\'s\n');
    expect(exists(path.join(manager.layout.trashDir, done.trashId, 'files', 'a.txt'))).toBe(true);
  });
});
