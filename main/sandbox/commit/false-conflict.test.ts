import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BinderyError, ConflictError } from '../../../shared/errors.ts';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import { RACY_WINDOW_MS } from '../changes/index.ts';
import * as journal from './journal/index.ts';
import { SandboxManager } from '../sandbox-manager.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

const fail = (message: string): never => {
  throw new Error(message);
};

const FILES = { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'd.txt': 'd\n' };
/** An original whose files are older than the racy window: the manifest holds no hash of them, only their stats. */
async function agedOriginal(): Promise<string> {
  const dir = tempDir('bindery-orig-');
  writeFiles(dir, FILES);
  await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 100));
  return dir;
}

async function sandboxWithEdits(dir: string) {
  const { manager, plan, store, dataDir } = newManager();
  const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: dir, sandboxStrategy: 'copy_on_write' });
  writeFiles(sandbox.path, { 'a.txt': 'A\n', 'b.txt': 'B\n', 'c.txt': 'C\n', 'd.txt': 'D\n' });
  return { manager, sandbox, store, dataDir };
}

const drifts = async (manager: Awaited<ReturnType<typeof sandboxWithEdits>>['manager'], id: string) =>
  Object.fromEntries((await manager.changes(id)).changes.map((c) => [c.path, c.drift]));

describe('conflicts of a copied sandbox', () => {
  it('need a change of content, mode or type in the original: a chmod to the same mode or a hard link is none', async () => {
    const dir = await agedOriginal();
    const { manager, sandbox } = await sandboxWithEdits(dir);
    // The person reviews the list; then the original's files are touched in ways that change only their ctime.
    expect(await drifts(manager, sandbox.id)).toEqual({ 'a.txt': 'clean', 'b.txt': 'clean', 'c.txt': 'clean', 'd.txt': 'clean' });
    fs.chmodSync(path.join(dir, 'a.txt'), fs.statSync(path.join(dir, 'a.txt')).mode & 0o7777);
    fs.linkSync(path.join(dir, 'b.txt'), path.join(tempDir('bindery-link-'), 'b-link.txt'));
    // A real change of content still is one, and so is a change of mode.
    fs.writeFileSync(path.join(dir, 'c.txt'), 'user edit\n');
    fs.chmodSync(path.join(dir, 'd.txt'), 0o600);
    expect(await drifts(manager, sandbox.id)).toEqual({ 'a.txt': 'clean', 'b.txt': 'clean', 'c.txt': 'conflict', 'd.txt': 'conflict' });
    const blocked = await manager.commit(sandbox.id).then(() => null, (e: unknown) => e);
    expect(blocked).toBeInstanceOf(ConflictError);
    expect((blocked as ConflictError).details).toMatchObject({ paths: [expect.objectContaining({ path: 'c.txt' }), expect.objectContaining({ path: 'd.txt' })] });
    expect(((blocked as ConflictError).details as { paths: unknown[] }).paths).toHaveLength(2);
    expect(await manager.commit(sandbox.id, { paths: ['a.txt', 'b.txt'] })).toMatchObject({ kind: 'committed' });
    expect([fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')]).toEqual(['A\n', 'B\n']);
  }, 20_000);

  it('say so when only the status moved before any look learned the content, which the stats cannot settle', async () => {
    const dir = await agedOriginal();
    const { manager, sandbox } = await sandboxWithEdits(dir);
    fs.chmodSync(path.join(dir, 'a.txt'), fs.statSync(path.join(dir, 'a.txt')).mode & 0o7777);
    const [a] = (await manager.changes(sandbox.id)).changes;
    expect(a).toMatchObject({ path: 'a.txt', drift: 'conflict', driftReason: expect.stringMatching(/its status changed in .* its content may be the same/) });
  }, 20_000);

  it("are not made by Bindery's own backups: a commit that failed and was undone, or stopped while backing up, can be retried", async () => {
    const dir = await agedOriginal();
    const { manager, sandbox, store, dataDir } = await sandboxWithEdits(dir);
    // The disk fails once the first file is replaced: the commit is undone, its backups having been linked.
    const failed = await manager
      .commit(sandbox.id, {
        onProgress: (progress) => {
          if (progress.phase === 'replacing' && progress.done === 1) throw new Error('no space left on device');
        },
      })
      .then(() => null, (e: unknown) => e);
    expect(failed).toBeInstanceOf(BinderyError);
    expect((failed as Error).message).toMatch(/It was undone/);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(await drifts(manager, sandbox.id)).toEqual({ 'a.txt': 'clean', 'b.txt': 'clean', 'c.txt': 'clean', 'd.txt': 'clean' });
    // Stopped while backing up (the hook stands in for a kill there): some files linked, none replaced.
    const stopping = new SandboxManager({
      store,
      dataDir,
      journal: {
        ...journal,
        applyTransaction: (input) =>
          journal.applyTransaction({ ...input, concurrency: 1, hooks: { at: (point, relPath) => void (point === 'backed_up' && relPath === 'c.txt' && fail('killed')) } }),
      },
    });
    await expect(stopping.commit(sandbox.id)).rejects.toThrow(/killed/);
    expect(await drifts(manager, sandbox.id)).toEqual({ 'a.txt': 'clean', 'b.txt': 'clean', 'c.txt': 'clean', 'd.txt': 'clean' });
    expect(await manager.commit(sandbox.id)).toMatchObject({ kind: 'committed' });
    expect(fs.readFileSync(path.join(dir, 'd.txt'), 'utf8')).toBe('D\n');
  }, 20_000);
});
