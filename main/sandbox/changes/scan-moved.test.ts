/** The ctime test of change detection and folders moved as a whole, whose files keep their old ctimes. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

describe('a copied sandbox whose folders were moved', () => {
  it('lists the files of a folder renamed in the sandbox and of one moved in from outside', async () => {
    const { manager, plan } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'a/x.txt': 'x\n', 'a/sub/y.txt': 'y\n', 'keep.txt': 'k\n' });
    // Made before the sandbox, so its files' ctimes are older than the sandbox's baseline.
    const outside = tempDir('bindery-outside-');
    writeFiles(outside, { 'pre/p.txt': 'p\n', 'pre/deep/q.txt': 'q\n' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    fs.renameSync(path.join(sandbox.path, 'a'), path.join(sandbox.path, 'b'));
    fs.renameSync(path.join(outside, 'pre'), path.join(sandbox.path, 'pre'));
    const listed = (await manager.changes(sandbox.id)).changes.map((c) => `${c.kind} ${c.path}${c.oldPath ? ` <- ${c.oldPath}` : ''}`);
    expect(listed.sort()).toEqual(['added pre/deep/q.txt', 'added pre/p.txt', 'renamed b/sub/y.txt <- a/sub/y.txt', 'renamed b/x.txt <- a/x.txt']);
    // Committed, the original has the files at their new paths, not only their deletions.
    expect(await manager.commit(sandbox.id)).toMatchObject({ kind: 'committed' });
    expect(fs.readFileSync(path.join(original, 'b/x.txt'), 'utf8')).toBe('x\n');
    expect(fs.readFileSync(path.join(original, 'pre/deep/q.txt'), 'utf8')).toBe('q\n');
  });
});
