/**
 * A commit's record lands whole: its row, the sandbox's status and the log line in one registry
 * transaction, so a process dying between them cannot leave a commit recorded with the sandbox
 * still "ready" and nothing in the log (recovery would see it recorded and do nothing).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

describe('a commit record', () => {
  it('is all or nothing when writing the status fails after the commit row', async () => {
    const { manager, plan, store, db } = newManager();
    const original = gitRepo({ 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'git_worktree' });
    fs.writeFileSync(path.join(sandbox.path, 'a.txt'), 'a, edited\n');
    const setStatus = store.setStatus.bind(store);
    store.setStatus = (id, status, ...rest) => {
      // The moment a kill would land: the commit's row written, its status not yet.
      if (status === 'committed') throw new Error('killed here');
      setStatus(id, status, ...rest);
    };
    await expect(manager.commit(sandbox.id)).rejects.toThrow('killed here');
    store.setStatus = setStatus;
    // Nothing of the commit is in the registry, so recovery sees an unrecorded commit and records it whole.
    expect(store.lastCommit(sandbox.id)).toBeUndefined();
    await manager.recover();
    expect(store.lastCommit(sandbox.id)).toBeDefined();
    expect(manager.sandbox(sandbox.id).status).toBe('committed');
    expect(db.prepare('SELECT kind FROM activity WHERE sandbox_id = ?').pluck().all(sandbox.id)).toContain('commit.recovered');
  });
});
