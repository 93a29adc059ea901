import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';
import { changeCounters, resetChangeCounters } from './counters.ts';
import { forgetListing } from './listing.ts';

const name = (i: number) => `f/${String(i).padStart(4, '0')}.txt`;

/** A sandbox of `total` files with 30 edited and one renamed, listed once (as a review does). */
async function reviewed(strategy: 'git_worktree' | 'copy_on_write', total = 1000) {
  const files = Object.fromEntries(Array.from({ length: total }, (_, i) => [name(i), `file ${i}\n`]));
  const { manager, plan } = newManager();
  const original = strategy === 'git_worktree' ? gitRepo(files) : tempDir('bindery-orig-');
  if (strategy === 'copy_on_write') writeFiles(original, files);
  const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
  for (let i = 1; i <= 30; i++) fs.appendFileSync(path.join(sandbox.path, name(i)), 'more\n');
  fs.renameSync(path.join(sandbox.path, name(0)), path.join(sandbox.path, 'moved.txt'));
  const list = await manager.changes(sandbox.id);
  expect(list.changes).toHaveLength(31);
  return { manager, sandbox, original, version: list.version };
}

describe.each(['git_worktree', 'copy_on_write'] as const)('a commit of chosen paths against the reviewed list (%s)', (strategy) => {
  it('reads only the chosen paths\' sides and lists nothing again', async () => {
    const { manager, sandbox, original, version } = await reviewed(strategy);
    const chosen = [...Array.from({ length: 17 }, (_, i) => name(i + 1)), 'moved.txt'];
    resetChangeCounters();
    const outcome = await manager.commit(sandbox.id, { paths: chosen, expectedVersion: version });
    expect(outcome).toMatchObject({ kind: 'committed', left: 13 });
    expect(changeCounters()).toMatchObject({ detections: 0, sidesRead: 2 * 17 + 4 });
    expect(fs.readFileSync(path.join(original, name(5)), 'utf8')).toBe('file 5\nmore\n');
    expect(fs.readFileSync(path.join(original, 'moved.txt'), 'utf8')).toBe('file 0\n');
    expect(fs.existsSync(path.join(original, name(0)))).toBe(false);
  }, 60_000);

  it('lists the sandbox once when this process holds no list, and refuses a chosen path edited since', async () => {
    const { manager, sandbox, original, version } = await reviewed(strategy, 200);
    forgetListing(sandbox.id);
    resetChangeCounters();
    expect(await manager.commit(sandbox.id, { paths: [name(1)], expectedVersion: version })).toMatchObject({ kind: 'committed', left: 30 });
    expect(changeCounters().detections).toBe(1);

    // The list (listed again for the next review) stays the reviewed one, but the file moved since: the whole sandbox is listed, and the commit refused.
    const again = await manager.changes(sandbox.id);
    fs.appendFileSync(path.join(sandbox.path, name(2)), 'edited after the review\n');
    resetChangeCounters();
    await expect(manager.commit(sandbox.id, { paths: [name(2)], expectedVersion: again.version })).rejects.toMatchObject({ details: { reason: 'changes_changed' } });
    expect(changeCounters().detections).toBe(1);
    expect(fs.readFileSync(path.join(original, name(2)), 'utf8')).toBe('file 2\n');
  }, 60_000);

  it('refuses a chosen path whose original changed since the review, with nothing written', async () => {
    const { manager, sandbox, original, version } = await reviewed(strategy, 200);
    fs.writeFileSync(path.join(original, name(3)), 'someone else\n');
    await expect(manager.commit(sandbox.id, { paths: [name(3), name(4)], expectedVersion: version })).rejects.toMatchObject({ details: { reason: 'changes_changed' } });
    expect(fs.readFileSync(path.join(original, name(4)), 'utf8')).toBe('file 4\n');
  }, 60_000);
});
