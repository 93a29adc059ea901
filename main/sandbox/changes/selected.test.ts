import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';
import { changeCounters, resetChangeCounters } from './counters.ts';
import { currentListing, forgetListing } from './listing.ts';

const name = (i: number) => `f/${String(i).padStart(4, '0')}.txt`;

/** Waits until `check` holds (a watcher's events arrive in their own time). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !check(); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() - started > 20_000) throw new Error(`Timed out waiting until ${what}`);
  }
}

/** A sandbox of `total` files with 30 edited and one renamed, listed under a watcher (as a review does). */
async function reviewed(strategy: 'git_worktree' | 'copy_on_write', total = 1000) {
  const files = Object.fromEntries(Array.from({ length: total }, (_, i) => [name(i), `file ${i}\n`]));
  const { manager, plan } = newManager();
  const original = strategy === 'git_worktree' ? gitRepo(files) : tempDir('bindery-orig-');
  if (strategy === 'copy_on_write') writeFiles(original, files);
  const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
  for (let i = 1; i <= 30; i++) fs.appendFileSync(path.join(sandbox.path, name(i)), 'more\n');
  fs.renameSync(path.join(sandbox.path, name(0)), path.join(sandbox.path, 'moved.txt'));
  expect((await manager.changes(sandbox.id)).changes).toHaveLength(31);
  const unwatch = manager.watch(sandbox.id, () => undefined);
  stops.push(unwatch);
  // Once the watcher is ready it lists again what it may have missed: from then on the list is current.
  await until(() => currentListing(manager.sandbox(sandbox.id)) !== undefined, 'the list is current');
  return { manager, sandbox, original, version: currentListing(manager.sandbox(sandbox.id))!.version };
}

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

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

  it('lists the sandbox once when this process holds no current list, and refuses a chosen path edited since', async () => {
    const { manager, sandbox, original, version } = await reviewed(strategy, 200);
    forgetListing(sandbox.id);
    resetChangeCounters();
    expect(await manager.commit(sandbox.id, { paths: [name(1)], expectedVersion: version })).toMatchObject({ kind: 'committed', left: 30 });
    expect(changeCounters().detections).toBe(1);

    // The file moves after the review: the whole sandbox is listed, and the commit refused.
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

describe('a commit of chosen paths while the watcher saw an edit elsewhere', () => {
  it('lists the whole sandbox and refuses, as the list is not the reviewed one', async () => {
    const { manager, sandbox, original, version } = await reviewed('copy_on_write', 200);
    fs.appendFileSync(path.join(sandbox.path, name(150)), 'a new change nobody reviewed\n');
    await until(() => currentListing(manager.sandbox(sandbox.id))?.version !== version, 'the watcher saw the edit');
    resetChangeCounters();
    await expect(manager.commit(sandbox.id, { paths: [name(1)], expectedVersion: version })).rejects.toMatchObject({ details: { reason: 'changes_changed' } });
    expect(changeCounters().detections).toBe(1);
    expect(fs.readFileSync(path.join(original, name(1)), 'utf8')).toBe('file 1\n');
  }, 60_000);
});
