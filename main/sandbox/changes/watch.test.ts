import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import type { SandboxChangeList } from '../../../shared/dto.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

describe('live changes', () => {
  it('reports a fresh change list after files change in the sandbox', async () => {
    const { manager, plan } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    const events: string[] = [];
    manager.onEvent((event) => events.push(event.type));
    const seen = new Promise<SandboxChangeList>((resolve) => {
      const stop = manager.watch(sandbox.id, (changes) => {
        if (changes.changes.length === 2) void stop().then(() => resolve(changes));
      });
      setTimeout(() => writeFiles(sandbox.path, { 'a.txt': 'A\n', 'new.txt': 'n\n' }), 300);
    });
    const changes = await seen;
    expect(changes.changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['modified a.txt', 'added new.txt']);
    expect(events).toContain('changes');
  });
});

describe('live conflicts', () => {
  it('reports a conflict when the original side of a listed path is edited', async () => {
    const { manager, plan } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'a.txt': 'sandbox\n' });
    const seen = new Promise<SandboxChangeList>((resolve) => {
      let edited = false;
      const stop = manager.watch(sandbox.id, (changes) => {
        // The first list (when the watcher is ready) names a.txt; then a person edits the original.
        if (!edited && changes.changes.length === 1) {
          edited = true;
          setTimeout(() => writeFiles(original, { 'a.txt': 'person\n' }), 300);
        }
        if (changes.changes[0]?.drift === 'conflict') void stop().then(() => resolve(changes));
      });
    });
    const changes = await seen;
    expect(changes.changes.map((c) => `${c.kind} ${c.path} ${c.drift}`)).toEqual(['modified a.txt conflict']);
  });
});
