import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileDiffView } from './file-diff-view.ts';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';
import { listingOf } from '../../sandbox/changes/listing.ts';

describe('the last change list of a discarded sandbox', () => {
  it('is forgotten, so the sandbox made again under the same id reads against its own base', async () => {
    const { manager, plan, dataDir } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'kept.txt': 'kept\n' });
    const planId = plan();
    const first = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(first.path, { 'new.txt': 'from the first sandbox\n' });
    expect((await manager.changes(first.id)).changes.map((c) => [c.path, c.kind])).toEqual([['new.txt', 'added']]);
    await manager.discard(first.id, { yes: true });
    expect(listingOf(manager.sandbox(first.id))).toBeUndefined();

    // Someone adds the file to the original; the plan's sandbox is made again and edits it.
    writeFiles(original, { 'new.txt': 'from the original\n' });
    const second = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    expect(second.id).toBe(first.id);
    fs.appendFileSync(path.join(second.path, 'new.txt'), 'edited\n');
    const view = await fileDiffView(manager.sandbox(second.id), { path: 'new.txt' }, path.join(dataDir, 'tmp'));
    expect(view).toMatchObject({ status: 'modified', oldText: 'from the original\n', newText: 'from the original\nedited\n' });
  }, 60_000);
});
