/**
 * A sandbox file rewritten (by the tool still running, say) after the commit was planned and before
 * the journal copied it: the commit must write nothing rather than content nobody reviewed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../shared/errors.ts';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import * as journal from './journal/index.ts';
import type { JournalHooks } from './journal/index.ts';
import { SandboxManager } from '../sandbox-manager.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

describe('a sandbox file rewritten while the manager commits', () => {
  it('refuses the commit, writing nothing, and a commit after the review writes the new content', async () => {
    const { dataDir, store, plan } = newManager();
    let rewrite: (() => void) | null = null;
    const hooks: JournalHooks = {
      at(point) {
        if (point !== 'prepared' || !rewrite) return;
        rewrite();
        rewrite = null;
      },
    };
    const manager = new SandboxManager({ store, dataDir, journal: { ...journal, applyTransaction: (input) => journal.applyTransaction({ ...input, hooks }) } });
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'a.txt': 'old a\n', 'b.txt': 'old b\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'a.txt': 'new a\n', 'b.txt': 'new b\n' });
    rewrite = () => fs.writeFileSync(path.join(sandbox.path, 'a.txt'), 'UNREVIEWED\n');

    const error = await manager.commit(sandbox.id).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toBe('a.txt changed in the sandbox while committing: review it again, then commit. Nothing was written.');
    expect(fs.readFileSync(path.join(original, 'a.txt'), 'utf8')).toBe('old a\n');
    expect(fs.readFileSync(path.join(original, 'b.txt'), 'utf8')).toBe('old b\n');
    expect(fs.readdirSync(original).sort()).toEqual(['a.txt', 'b.txt']);

    // Reviewed again: the change list shows the new content, and committing it writes it.
    const changes = await manager.changes(sandbox.id);
    expect(changes.changes.map((c) => c.path).sort()).toEqual(['a.txt', 'b.txt']);
    const outcome = await manager.commit(sandbox.id);
    expect(outcome.kind).toBe('committed');
    expect(fs.readFileSync(path.join(original, 'a.txt'), 'utf8')).toBe('UNREVIEWED\n');
    expect(fs.readFileSync(path.join(original, 'b.txt'), 'utf8')).toBe('new b\n');
  });
});
