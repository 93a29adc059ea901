import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { exists, newManager } from '../../testing/sandbox/harness.ts';
import { tsxArgs } from '../../testing/child-process.ts';

const asRoot = process.getuid?.() === 0;
if (!asRoot) console.warn('trash.test.ts: skipping the read_only discard test: it runs a child as uid 65534, which needs root.');

describe('restoring a worktree sandbox', () => {
  it('puts back a folder that became a file and a file that became a folder', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'd/x.txt': 'x\n', 'd/sub/y.txt': 'y\n', 'f.txt': 'f\n', 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    fs.rmSync(path.join(sandbox.path, 'd'), { recursive: true });
    fs.writeFileSync(path.join(sandbox.path, 'd'), 'now a file\n');
    fs.rmSync(path.join(sandbox.path, 'f.txt'));
    writeFiles(sandbox.path, { 'f.txt/inside.txt': 'now a folder\n' });
    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };

    await manager.restoreTrash(done.trashId);
    expect(fs.readFileSync(path.join(sandbox.path, 'd'), 'utf8')).toBe('now a file\n');
    expect(fs.readFileSync(path.join(sandbox.path, 'f.txt', 'inside.txt'), 'utf8')).toBe('now a folder\n');
    expect(fs.readFileSync(path.join(sandbox.path, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('puts back its empty folders, which git does not list', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n' });
    fs.mkdirSync(path.join(sandbox.path, 'out', 'cache'), { recursive: true });
    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    await manager.restoreTrash(done.trashId);
    expect(exists(path.join(sandbox.path, 'out', 'cache'))).toBe(true);
  });

  it('rebuilds an older entry at its own base, so an edit of the original made since is a conflict', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'one\n' });
    const request = { planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' as const };
    const sandbox = await manager.getOrCreateSandbox(request);
    writeFiles(sandbox.path, { 'a.txt': 'sandbox\n' });
    const first = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    writeFiles(repo, { 'a.txt': 'user edit\n' });
    const again = await manager.getOrCreateSandbox(request);
    expect(again.id).toBe(sandbox.id);
    await manager.discard(again.id, { yes: true });

    await manager.restoreTrash(first.trashId);
    expect(manager.sandbox(sandbox.id).baseCommit).toBe(sandbox.baseCommit);
    const [change] = (await manager.changes(sandbox.id)).changes;
    expect(change).toMatchObject({ path: 'a.txt', drift: 'conflict' });
    await manager.commit(sandbox.id, {}).catch(() => undefined);
    expect(fs.readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('user edit\n');
  });
});

describe('restoring after a new provision of the same sandbox', () => {
  it('still works when provisioning it again was cancelled', async () => {
    const { manager, plan } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'a.txt': 'a\n' });
    const request = { planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' as const };
    const sandbox = await manager.getOrCreateSandbox(request);
    writeFiles(sandbox.path, { 'work.txt': 'hours of work\n' });
    const done = (await manager.discard(sandbox.id, { yes: true })) as { trashId: string };
    const cancelled = new AbortController();
    cancelled.abort();
    await expect(manager.getOrCreateSandbox({ ...request, signal: cancelled.signal })).rejects.toThrow(/cancelled/);
    expect(manager.sandbox(sandbox.id).status).toBe('discarded');

    await manager.restoreTrash(done.trashId);
    expect(fs.readFileSync(path.join(sandbox.path, 'work.txt'), 'utf8')).toBe('hours of work\n');
  });
});

describe('a read_only copied sandbox', () => {
  it.skipIf(!asRoot)('is discarded into the trash and restored read-only by an ordinary user', () => {
    const child = path.join(import.meta.dirname, '../../testing/sandbox/readonly-discard-child.ts');
    const run = spawnSync(process.execPath, tsxArgs(child), { encoding: 'utf8', uid: 65534, gid: 65534, cwd: path.resolve(import.meta.dirname, '../../..') });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { base: string };
    fs.rmSync(result.base, { recursive: true, force: true });
    expect(result).toMatchObject({
      discarded: { outcome: { kind: 'discarded' }, sandboxLeft: false, trash: 1, trashFolders: 1 },
      restored: { content: 'changed by a tool\n', rootWritable: false, changes: ['modified a.txt'] },
    });
  });
});

describe('commit backups live as long as the undo they serve', () => {
  /** The journal transactions (each holding a commit's backups) left in the data directory. */
  const journals = (dataDir: string): string[] => (fs.existsSync(path.join(dataDir, 'journal')) ? fs.readdirSync(path.join(dataDir, 'journal')) : []);

  it('go with the trash entry: a restored sandbox undoes again, and purging the entry deletes them', async () => {
    const { manager, plan, dataDir } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'a.txt': 'a\n' });
    const live = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    const gone = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(gone.path, { 'b.txt': 'from the discarded one\n' });
    await manager.commit(gone.id);
    const [goneTx] = journals(dataDir);
    writeFiles(live.path, { 'c.txt': 'from the live one\n' });
    await manager.commit(live.id);

    const first = (await manager.discard(gone.id, { yes: true })) as { trashId: string };
    await expect(manager.undo(gone.id)).rejects.toThrow(/restore it from the trash first/);
    await manager.restoreTrash(first.trashId);
    await manager.undo(gone.id);
    expect(exists(path.join(original, 'b.txt'))).toBe(false);

    await manager.commit(gone.id);
    await manager.discard(gone.id, { yes: true });
    expect(journals(dataDir)).toHaveLength(3);
    await manager.purgeTrash({ all: true });
    expect(journals(dataDir)).toHaveLength(1);
    expect(journals(dataDir)).not.toContain(goneTx);
    await manager.undo(live.id);
    expect(exists(path.join(original, 'c.txt'))).toBe(false);
  });

  it('end at a discard that needs no trash entry, and an undo from the sandbox provisioned anew is refused', async () => {
    const { manager, plan, dataDir } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'a.txt': 'a\n' });
    const request = { planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' as const };
    const sandbox = await manager.getOrCreateSandbox(request);
    writeFiles(sandbox.path, { 'a.txt': 'A\n' });
    await manager.commit(sandbox.id);
    // The tool puts the file back as it was: nothing differs from the base, so the discard keeps nothing.
    writeFiles(sandbox.path, { 'a.txt': 'a\n' });
    expect(await manager.discard(sandbox.id)).toMatchObject({ kind: 'discarded', trashId: null });
    expect(journals(dataDir)).toEqual([]);
    const again = await manager.getOrCreateSandbox(request);
    await expect(manager.undo(again.id)).rejects.toThrow(/made by an earlier sandbox that was discarded since/);
    expect(fs.readFileSync(path.join(original, 'a.txt'), 'utf8')).toBe('A\n');
  });
});
