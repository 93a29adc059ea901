import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setSandboxStatus } from '../registry/sandboxes.ts';
import { git, gitRepo, tempDir, writeFiles } from '../testing/fixtures.ts';
import { metaDir } from './layout.ts';
import { exists, newManager } from './test-harness.ts';

const child = path.join(import.meta.dirname, 'trash-crash-child.ts');

/** Runs the crash child, which must die by SIGKILL at its hook. */
function killedAt(dataDir: string, action: 'discard' | 'restore', id: string, hook: 'rename' | 'copyFile', suffix = ''): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', child, dataDir, action, id, hook, suffix], { encoding: 'utf8' });
  expect(run.signal, run.stderr + run.stdout).toBe('SIGKILL');
}

async function copySandboxWithWork() {
  const ctx = newManager();
  const original = tempDir('bindery-orig-');
  writeFiles(original, { 'a.txt': 'a\n' });
  const sandbox = await ctx.manager.getOrCreateSandbox({ planId: ctx.plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
  writeFiles(sandbox.path, { 'work.txt': 'hours of work\n' });
  return { ...ctx, sandbox };
}

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
    const done = (await manager.rollback(sandbox.id, { yes: true })) as { trashId: string };
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
    const done = (await manager.rollback(sandbox.id, { yes: true })) as { trashId: string };
    killedAt(dataDir, 'restore', done.trashId, 'copyFile');
    expect(exists(sandbox.path)).toBe(true);

    const restarted = newManager({ dataDir }).manager;
    await restarted.restoreTrash(done.trashId);
    expect((await restarted.changes(sandbox.id)).changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['modified a.txt', 'modified b.txt']);
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(2);
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
    const { manager, db, sandbox } = await copySandboxWithWork();
    const done = (await manager.rollback(sandbox.id, { yes: true })) as { trashId: string };
    const again = await manager.getOrCreateSandbox({ planId: sandbox.planId, resourceId: 'R1', originalPath: sandbox.originalPath, sandboxStrategy: 'copy_on_write' });
    setSandboxStatus(db, again.id, 'provisioning', new Date().toISOString());
    const marker = path.join(metaDir(again.path), 'marker.json');
    fs.writeFileSync(marker, JSON.stringify({ ...JSON.parse(fs.readFileSync(marker, 'utf8')), pid: 2 ** 22 + 12345 }));
    const report = await manager.recover();
    expect(report.abandoned.map((a) => a.sandboxId)).toEqual([sandbox.id]);
    expect(manager.sandbox(sandbox.id).status).toBe('discarded');
    await manager.restoreTrash(done.trashId);
    expect(fs.readFileSync(path.join(sandbox.path, 'work.txt'), 'utf8')).toBe('hours of work\n');
  });
});
