/** Recovery of discards killed part way through a worktree, across filesystems, or before deleting anything. */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { journal } from '../commit/index.ts';
import { metaDir } from '../provision/index.ts';
import { SandboxManager } from '../sandbox-manager.ts';
import { exists, newManager, openRegistry } from '../../testing/sandbox/harness.ts';
import { copySandboxWithWork, killedAt, worktreeWithWork } from '../../testing/sandbox/trash-crash.ts';

describe('a worktree discard killed after its files were complete in the trash', () => {
  it('before it began removing the worktree: recovery undoes it, keeping work done in the sandbox since', async () => {
    const { dataDir, sandbox } = await worktreeWithWork({ 'a.txt': 'A\n' });
    killedAt(dataDir, 'discard', sandbox.id, 'writeFile', 'removing');
    writeFiles(sandbox.path, { 'later.txt': 'work after the failed discard\n' });

    const restarted = newManager({ dataDir }).manager;
    expect((await restarted.recover()).trash).toEqual([expect.objectContaining({ sandboxId: sandbox.id, outcome: 'kept' })]);
    expect(restarted.sandbox(sandbox.id).status).toBe('ready');
    expect(fs.readFileSync(path.join(sandbox.path, 'later.txt'), 'utf8')).toBe('work after the failed discard\n');
    expect(fs.readdirSync(restarted.layout.trashDir)).toEqual([]);
  });

  it('of a read_only worktree, before it began removing it: recovery undoes it and the folders are read-only again', async () => {
    const ctx = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', 'd/c.txt': 'c\n' });
    const sandbox = await ctx.manager.getOrCreateSandbox({ planId: ctx.plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree', access: 'read_only' });
    // A tool that broke the rule: a change in a read_only sandbox, which the discard keeps in the trash.
    fs.chmodSync(sandbox.path, 0o755);
    writeFiles(sandbox.path, { 'sneaky.txt': 'x\n' });
    fs.chmodSync(sandbox.path, 0o555);
    killedAt(ctx.dataDir, 'discard', sandbox.id, 'writeFile', 'removing');
    const restarted = newManager({ dataDir: ctx.dataDir }).manager;
    expect((await restarted.recover()).trash).toEqual([expect.objectContaining({ sandboxId: sandbox.id, outcome: 'kept' })]);
    expect([fs.statSync(sandbox.path).mode & 0o222, fs.statSync(path.join(sandbox.path, 'd')).mode & 0o222]).toEqual([0, 0]);
  });

  it('while removing it: recovery finishes it, and the entry restores', async () => {
    const { dataDir, sandbox } = await worktreeWithWork({ 'a.txt': 'A\n' });
    killedAt(dataDir, 'discard', sandbox.id, 'chmod', sandbox.path, 2);

    const restarted = newManager({ dataDir }).manager;
    expect((await restarted.recover()).trash).toEqual([expect.objectContaining({ sandboxId: sandbox.id, outcome: 'discarded' })]);
    await restarted.restoreTrash(restarted.listTrash()[0]!.id);
    expect(fs.readFileSync(path.join(sandbox.path, 'a.txt'), 'utf8')).toBe('A\n');
  });

  it('while removing it, then discarded and provisioned anew: recovery deletes nothing and says why', async () => {
    const { manager, dataDir, sandbox, request } = await worktreeWithWork({ 'a.txt': 'A\n' });
    killedAt(dataDir, 'discard', sandbox.id, 'chmod', sandbox.path, 2);
    await manager.discard(sandbox.id, { yes: true });
    const again = await manager.getOrCreateSandbox(request);
    expect(again.id).toBe(sandbox.id);
    writeFiles(again.path, { 'new-work.txt': 'work in the new sandbox\n' });
    const stale = fs.readdirSync(manager.layout.trashDir).find((name) => exists(path.join(manager.layout.trashDir, name, 'removing')));

    const restarted = newManager({ dataDir }).manager;
    const report = await restarted.recover();
    expect(report.trash).toEqual([expect.objectContaining({ trashId: stale, outcome: 'failed', reason: expect.stringMatching(/changed since/) })]);
    expect(restarted.sandbox(sandbox.id).status).toBe('ready');
    expect(fs.readFileSync(path.join(again.path, 'new-work.txt'), 'utf8')).toBe('work in the new sandbox\n');
    expect(fs.readFileSync(path.join(restarted.layout.trashDir, stale!, 'files', 'a.txt'), 'utf8')).toBe('A\n');
  });
});

const shm = '/dev/shm';
const crossFs = fs.existsSync(shm) && fs.statSync(shm).dev !== fs.statSync(os.tmpdir()).dev;
const shmDirs: string[] = [];
afterEach(() => {
  for (const dir of shmDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A copied sandbox with work whose data directory (and so the trash) is on another filesystem than the sandboxes root. */
async function crossFsCopySandbox() {
  const dataDir = fs.mkdtempSync(path.join(shm, 'bindery-data-'));
  shmDirs.push(dataDir);
  const root = path.join(tempDir('bindery-root-'), 'sandboxes');
  const { store, plan } = openRegistry(dataDir);
  const manager = new SandboxManager({ store, dataDir, journal, sandboxesRoot: root });
  const planId = plan();
  const original = tempDir('bindery-orig-');
  writeFiles(original, { 'a.txt': 'a\n' });
  const sandbox = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
  writeFiles(sandbox.path, { 'work.txt': 'work\n' });
  return { manager, dataDir, root, sandbox };
}

/** The same, discarded into the trash. */
async function crossFsCopyWithWork() {
  const made = await crossFsCopySandbox();
  const done = (await made.manager.discard(made.sandbox.id, { yes: true })) as { trashId: string };
  return { ...made, trashId: done.trashId };
}

describe.skipIf(!crossFs)('a restore across filesystems', () => {
  it('leaves alone a folder beside the sandbox that Bindery does not own', async () => {
    const { manager, sandbox, trashId } = await crossFsCopyWithWork();
    const stranger = `${sandbox.path}.partial`;
    writeFiles(stranger, { 'keep-me.txt': 'not Bindery\'s\n' });
    expect((await manager.recover()).orphans).toContain(stranger);

    await manager.restoreTrash(trashId);
    expect(fs.readFileSync(path.join(sandbox.path, 'work.txt'), 'utf8')).toBe('work\n');
    expect(fs.readFileSync(path.join(stranger, 'keep-me.txt'), 'utf8')).toBe('not Bindery\'s\n');
  });

  it('killed after setting the files aside, before the copy took the sandbox path: a folder put there since is not taken for it', async () => {
    const { manager, dataDir, root, sandbox, trashId } = await crossFsCopyWithWork();
    // rename #1 to the sandbox path is the try across filesystems; #2 puts the copy in place, after files became files.moved.
    killedAt(dataDir, 'restore', trashId, 'rename', sandbox.path, 2, root);
    writeFiles(sandbox.path, { 'mine.txt': 'someone else\'s\n' });

    expect((await manager.recover()).trash).toEqual([expect.objectContaining({ trashId, outcome: 'failed', reason: expect.stringMatching(/not what restoring/) })]);
    expect(fs.readFileSync(path.join(sandbox.path, 'mine.txt'), 'utf8')).toBe('someone else\'s\n');
    expect(fs.readFileSync(path.join(dataDir, 'trash', trashId, 'files.moved', 'work.txt'), 'utf8')).toBe('work\n');
    expect(manager.listTrash().map((entry) => entry.id)).toEqual([trashId]);
  });

  it('killed after setting the files aside, before the copy took the sandbox path: recovery puts that copy in place', async () => {
    const { manager, dataDir, root, sandbox, trashId } = await crossFsCopyWithWork();
    killedAt(dataDir, 'restore', trashId, 'rename', sandbox.path, 2, root);

    expect((await manager.recover()).trash).toEqual([{ trashId, sandboxId: sandbox.id, outcome: 'restored' }]);
    expect((await manager.changes(sandbox.id)).changes.map((c) => c.path)).toEqual(['work.txt']);
    expect(fs.readdirSync(path.dirname(sandbox.path)).filter((name) => name.includes('.partial-'))).toEqual([]);
  });

  it('killed while removing the trash copy after the folder was back: recovery finishes it', async () => {
    const { manager, dataDir, root, sandbox, trashId } = await crossFsCopyWithWork();
    killedAt(dataDir, 'restore', trashId, 'rm', 'files.moved', 1, root);
    expect(fs.readFileSync(path.join(sandbox.path, 'work.txt'), 'utf8')).toBe('work\n');

    expect((await manager.recover()).trash).toEqual([{ trashId, sandboxId: sandbox.id, outcome: 'restored' }]);
    expect(manager.sandbox(sandbox.id).status).toBe('ready');
    expect(manager.listTrash()).toEqual([]);
    expect((await manager.changes(sandbox.id)).changes.map((c) => c.path)).toEqual(['work.txt']);
  });
});

describe.skipIf(!crossFs)('a copy discard across filesystems', () => {
  it('killed after its copy was complete, before the sandbox was removed: recovery undoes it, keeping work done since', async () => {
    const { manager, dataDir, root, sandbox } = await crossFsCopySandbox();
    // chmod #1 is the discard's own on the sandbox folder; #2 makes it writable for removal, just before the `removing` flag.
    killedAt(dataDir, 'discard', sandbox.id, 'chmod', sandbox.path, 2, root);
    writeFiles(sandbox.path, { 'later.txt': 'work after the failed discard\n' });

    expect((await manager.recover()).trash).toEqual([expect.objectContaining({ sandboxId: sandbox.id, outcome: 'kept' })]);
    expect(manager.sandbox(sandbox.id).status).toBe('ready');
    expect(fs.readFileSync(path.join(sandbox.path, 'later.txt'), 'utf8')).toBe('work after the failed discard\n');
    expect(fs.readdirSync(manager.layout.trashDir)).toEqual([]);
  });

  it('killed after its metadata copy took the entry, before the metadata beside the sandbox was removed: recovery finishes it', async () => {
    const { manager, dataDir, root, sandbox } = await crossFsCopySandbox();
    killedAt(dataDir, 'discard', sandbox.id, 'rm', metaDir(sandbox.path), 1, root);

    const report = await manager.recover();
    expect(report.missing).toEqual([]);
    expect(report.trash).toEqual([expect.objectContaining({ sandboxId: sandbox.id, outcome: 'discarded' })]);
    expect(exists(metaDir(sandbox.path))).toBe(false);
    await manager.restoreTrash(manager.listTrash()[0]!.id);
    expect((await manager.changes(sandbox.id)).changes.map((c) => c.path)).toEqual(['work.txt']);
  });
});

describe('a discard that fails before deleting anything', () => {
  it('of a worktree leaves it whole and ready, and no trash entry a later start would finish over work done since', async () => {
    const { manager, dataDir, sandbox } = await worktreeWithWork({ 'a.txt': 'A\n' });
    const chmod = fsp.chmod;
    // The first chmod of the sandbox folder (making it writable for removal) fails, as on a folder another user owns.
    let failed = false;
    vi.spyOn(fsp, 'chmod').mockImplementation(async (file, mode) => {
      if (failed || String(file) !== sandbox.path) return chmod(file, mode);
      failed = true;
      throw Object.assign(new Error(`EPERM: operation not permitted, chmod '${String(file)}'`), { code: 'EPERM' });
    });
    await expect(manager.discard(sandbox.id, { yes: true })).rejects.toThrow(/EPERM/);
    vi.restoreAllMocks();
    expect(manager.sandbox(sandbox.id).status).toBe('ready');
    expect(fs.readdirSync(manager.layout.trashDir)).toEqual([]);
    writeFiles(sandbox.path, { 'later.txt': 'work after the failed discard\n' });

    expect((await newManager({ dataDir }).manager.recover()).trash).toEqual([]);
    expect(fs.readFileSync(path.join(sandbox.path, 'later.txt'), 'utf8')).toBe('work after the failed discard\n');
  });

  it('killed between its flag and entry.json: recovery removes the empty trash folder and says so', async () => {
    const { dataDir, sandbox } = await copySandboxWithWork();
    killedAt(dataDir, 'discard', sandbox.id, 'writeFile', 'entry.json');

    const restarted = newManager({ dataDir }).manager;
    expect((await restarted.recover()).trash).toEqual([expect.objectContaining({ sandboxId: null, outcome: 'kept' })]);
    expect(fs.readdirSync(restarted.layout.trashDir)).toEqual([]);
    expect(fs.readFileSync(path.join(sandbox.path, 'work.txt'), 'utf8')).toBe('hours of work\n');
  });
});
