/**
 * commitAll writes the plan's sandboxes one after another and undoes those written when a later
 * one fails. Where undoing one is refused (its files changed meanwhile), the error must say that
 * commit stays, not leave the person believing nothing of the plan was written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import * as journal from './journal/index.ts';
import { SandboxManager } from '../sandbox-manager.ts';
import { newManager, planCommits } from '../../testing/sandbox/harness.ts';

describe('commitAll stopped by a later sandbox', () => {
  it('says which earlier commit stays when undoing it was refused', async () => {
    const { dataDir, db, store, plan } = newManager();
    const first = tempDir('bindery-orig-a-');
    const second = tempDir('bindery-orig-b-');
    writeFiles(first, { 'a.txt': 'old a\n' });
    writeFiles(second, { 'b.txt': 'old b\n' });
    let transactions = 0;
    const manager = new SandboxManager({
      store,
      dataDir,
      journal: {
        ...journal,
        applyTransaction: (input) =>
          journal.applyTransaction({
            ...input,
            hooks: {
              at(point) {
                if (point !== 'checked' || ++transactions !== 2) return;
                // While the second sandbox is being written, someone edits what the first commit wrote, and the second fails.
                fs.writeFileSync(path.join(first, 'a.txt'), 'edited after the commit\n');
                throw new Error('disk full');
              },
            },
          }),
      },
    });
    const planId = plan();
    const a = await manager.getOrCreateSandbox({ planId, resourceId: 'RA', originalPath: first, sandboxStrategy: 'copy_on_write' });
    const b = await manager.getOrCreateSandbox({ planId, resourceId: 'RB', originalPath: second, sandboxStrategy: 'copy_on_write' });
    writeFiles(a.path, { 'a.txt': 'new a\n' });
    writeFiles(b.path, { 'b.txt': 'new b\n' });
    const error = await manager.commitAll(planId).then(
      () => null,
      (e: Error) => e,
    );
    const stays = planCommits(db, planId).filter((c) => !c.undoneAt);
    expect(stays.map((c) => c.sandboxId)).toEqual([a.id]);
    expect(error?.message).toMatch(/disk full/);
    expect(error?.message).toMatch(new RegExp(`the commit of \\S+ to ${first.replace(/[/.]/g, '\\$&')} stays, as undoing it was refused \\(Undo refused: 1 file`));
  });
});
