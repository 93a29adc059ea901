import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../../shared/errors.ts';
import { gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { changeListVersion, VERSION_PATTERN } from './version.ts';
import { newManager } from '../../testing/sandbox/harness.ts';
import { tsxArgs } from '../../testing/child-process.ts';

const STRATEGIES = ['copy_on_write', 'git_worktree'] as const;
const FILES = { 'a.txt': 'a\n', 'b.txt': 'b\n', 'move-me.txt': 'moved content\n', 'gone.txt': 'gone\n' };

function original(strategy: (typeof STRATEGIES)[number]): string {
  if (strategy === 'git_worktree') return gitRepo(FILES);
  const dir = tempDir('bindery-orig-');
  writeFiles(dir, FILES);
  return dir;
}

/** Every file of a folder with its content (the `.git` folder left out). */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(root, full);
    if (rel === '.git' || rel.startsWith(`.git${path.sep}`) || !entry.isFile()) continue;
    out[rel] = fs.readFileSync(full, 'utf8');
  }
  return out;
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('the commit went through');
    },
    (error: unknown) => error as Error,
  );
}

describe.each(STRATEGIES)('change-list version (%s)', (strategy) => {
  async function setup() {
    const made = newManager();
    const origin = original(strategy);
    const sandbox = await made.manager.getOrCreateSandbox({ planId: made.plan(), resourceId: 'R1', originalPath: origin, sandboxStrategy: strategy });
    // A modification, an addition, a deletion and a rename: every kind whose ids the version joins.
    writeFiles(sandbox.path, { 'a.txt': 'a, edited\n', 'new.txt': 'new\n' });
    fs.rmSync(path.join(sandbox.path, 'gone.txt'));
    fs.renameSync(path.join(sandbox.path, 'move-me.txt'), path.join(sandbox.path, 'moved.txt'));
    return { ...made, origin, sandbox };
  }

  it('commits nothing for an empty selection: all is no paths, not an empty list', async () => {
    const { manager, origin, sandbox } = await setup();
    const before = snapshot(origin);
    const error = await refusal(manager.commit(sandbox.id, { paths: [] }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('No paths selected: choose files to commit, or commit all.');
    expect(snapshot(origin)).toEqual(before);
    expect((await manager.changes(sandbox.id)).changes).toHaveLength(4);
  });

  it('gives the same version on every look and in another process, and a commit with it writes the list', async () => {
    const { manager, dataDir, origin, sandbox } = await setup();
    const listed = await manager.changes(sandbox.id);
    expect(listed.changes.map((c) => [c.kind, c.path])).toEqual([
      ['modified', 'a.txt'],
      ['deleted', 'gone.txt'],
      ['renamed', 'moved.txt'],
      ['added', 'new.txt'],
    ]);
    expect(listed.version).toMatch(VERSION_PATTERN);
    expect(listed.version.startsWith('4-')).toBe(true);
    // Again (served from the cache of the first look), and in a process of its own, as another host would.
    expect((await manager.changes(sandbox.id)).version).toBe(listed.version);
    const child = spawnSync(process.execPath, tsxArgs(path.join(import.meta.dirname, '../../testing/sandbox/change-version-child.ts'), [dataDir, sandbox.id]), { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe(listed.version);

    const outcome = await manager.commit(sandbox.id, { expectedVersion: listed.version });
    expect(outcome).toMatchObject({ kind: 'committed', commit: { written: ['a.txt', 'moved.txt', 'new.txt'], deleted: ['gone.txt', 'move-me.txt'] } });
    expect(snapshot(origin)).toEqual({ 'a.txt': 'a, edited\n', 'b.txt': 'b\n', 'moved.txt': 'moved content\n', 'new.txt': 'new\n' });
  });

  it('refuses a list that grew since the review, with both counts, and writes nothing', async () => {
    const { manager, origin, sandbox } = await setup();
    const reviewed = (await manager.changes(sandbox.id)).version;
    writeFiles(sandbox.path, { 'late.txt': 'written after the review\n' });
    const before = snapshot(origin);
    const error = await refusal(manager.commit(sandbox.id, { expectedVersion: reviewed }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.message).toMatch(/^The sandbox of .* has 5 changes now, 4 when you reviewed it: review again, then commit\. Nothing was written\.$/);
    expect((error as ConflictError).details).toMatchObject({ reason: 'changes_changed', sandboxId: sandbox.id, reviewed: 4, now: 5 });
    expect(snapshot(origin)).toEqual(before);
    // The version the refusal names is the list's now: reviewed again, the commit goes through.
    const now = await manager.changes(sandbox.id);
    expect((error as ConflictError).details).toMatchObject({ version: now.version });
    expect((await manager.commit(sandbox.id, { expectedVersion: now.version })).kind).toBe('committed');
    expect(snapshot(origin)['late.txt']).toBe('written after the review\n');
  });

  it('refuses a list whose count stayed but whose content changed (same size, same line counts)', async () => {
    const { manager, origin, sandbox } = await setup();
    const listed = await manager.changes(sandbox.id);
    writeFiles(sandbox.path, { 'a.txt': 'A, edited\n' });
    const again = await manager.changes(sandbox.id);
    expect(again.changes.find((c) => c.path === 'a.txt')).toEqual(listed.changes.find((c) => c.path === 'a.txt'));
    expect(again.version).not.toBe(listed.version);
    const before = snapshot(origin);
    const error = await refusal(manager.commit(sandbox.id, { expectedVersion: listed.version }));
    expect(error.message).toMatch(/are not the ones you reviewed \(4 changes, as before\): review again, then commit/);
    expect(snapshot(origin)).toEqual(before);
  });

  it('refuses a selected-paths commit too when the list is not the reviewed one', async () => {
    const { manager, origin, sandbox } = await setup();
    const reviewed = (await manager.changes(sandbox.id)).version;
    fs.rmSync(path.join(sandbox.path, 'new.txt'));
    const before = snapshot(origin);
    const error = await refusal(manager.commit(sandbox.id, { paths: ['a.txt'], expectedVersion: reviewed }));
    expect(error.message).toMatch(/has 3 changes now, 4 when you reviewed it/);
    expect(snapshot(origin)).toEqual(before);
  });

  it('refuses the whole plan when one sandbox changed, and counts a sandbox left out of the map as reviewed empty', async () => {
    const { manager, plan, origin, sandbox } = await setup();
    const second = original(strategy);
    const other = await manager.getOrCreateSandbox({ planId: sandbox.planId, resourceId: 'R2', originalPath: second, sandboxStrategy: strategy });
    writeFiles(other.path, { 'b.txt': 'b, edited\n' });
    void plan;
    const versions = { [sandbox.id]: (await manager.changes(sandbox.id)).version, [other.id]: (await manager.changes(other.id)).version };
    const before = [snapshot(origin), snapshot(second)];

    writeFiles(other.path, { 'late.txt': 'late\n' });
    const grown = await refusal(manager.commitAll(sandbox.planId, { expectedVersions: versions }));
    expect(grown.message).toMatch(/has 2 changes now, 1 when you reviewed it/);
    const unreviewed = await refusal(manager.commitAll(sandbox.planId, { expectedVersions: { [sandbox.id]: versions[sandbox.id]! } }));
    expect(unreviewed.message).toMatch(/has 2 changes now, 0 when you reviewed it/);
    expect([snapshot(origin), snapshot(second)]).toEqual(before);

    versions[other.id] = (await manager.changes(other.id)).version;
    const outcomes = await manager.commitAll(sandbox.planId, { expectedVersions: versions });
    expect(outcomes.map((o) => o.kind)).toEqual(['committed', 'committed']);
    expect(snapshot(second)['late.txt']).toBe('late\n');
  });
});

describe('changeListVersion', () => {
  it('counts the changes in front of a hash that does not depend on their order', () => {
    const change = (p: string) => ({
      change: { path: p, oldPath: null, kind: 'added' as const, oldType: null, newType: 'file' as const, oldMode: null, newMode: 0o644, size: 1, binary: false, additions: 1, deletions: 0, drift: 'clean' as const, driftReason: null },
      ids: `file:${p}<-`,
    });
    expect(changeListVersion([])).toMatch(/^0-[0-9a-f]{16}$/);
    expect(changeListVersion([change('a'), change('b')])).toBe(changeListVersion([change('b'), change('a')]));
    expect(changeListVersion([change('a'), change('b')]).startsWith('2-')).toBe(true);
    expect(changeListVersion([change('a')])).not.toBe(changeListVersion([{ ...change('a'), ids: 'file:other<-' }]));
  });
});
