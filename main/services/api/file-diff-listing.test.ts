import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileDiffView } from './file-diff-view.ts';
import { gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { newManager } from '../../testing/sandbox/harness.ts';
import { changeCounters, resetChangeCounters } from '../../sandbox/changes/counters.ts';

/** Ten lines of 20 bytes each, `changed` of them different in the sandbox's version. */
function tenLines(name: string, changed = 0): string {
  return Array.from({ length: 10 }, (_, i) => `${i < changed ? 'edited' : name}-${String(i).padStart(2, '0')}`.padEnd(19, '.') + '\n').join('');
}

describe.each(['git_worktree', 'copy_on_write'] as const)('one file opened against the last list (%s)', (strategy) => {
  it('reads that file\'s two sides in a 2,000-file sandbox, a rename\'s four, and lists nothing again', async () => {
    const files = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f/${String(i).padStart(4, '0')}.txt`, `file ${i}\n`]));
    const { manager, plan, dataDir } = newManager();
    const original = strategy === 'git_worktree' ? gitRepo(files) : tempDir('bindery-orig-');
    if (strategy === 'copy_on_write') writeFiles(original, files);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
    for (let i = 1; i < 40; i++) fs.appendFileSync(path.join(sandbox.path, 'f', `${String(i).padStart(4, '0')}.txt`), 'more\n');
    fs.renameSync(path.join(sandbox.path, 'f/0000.txt'), path.join(sandbox.path, 'moved.txt'));
    writeFiles(sandbox.path, { 'new.txt': 'new\n' });
    const list = await manager.changes(sandbox.id);
    expect(list.changes).toHaveLength(41);
    const tmp = path.join(dataDir, 'tmp');

    resetChangeCounters();
    const view = await fileDiffView(manager.sandbox(sandbox.id), { path: 'f/0007.txt' }, tmp);
    expect(view).toMatchObject({ status: 'modified', additions: 1, deletions: 0, oldText: 'file 7\n', newText: 'file 7\nmore\n' });
    expect(changeCounters()).toMatchObject({ sidesRead: 2, detections: 0 });

    resetChangeCounters();
    expect(await fileDiffView(manager.sandbox(sandbox.id), { path: 'moved.txt' }, tmp)).toMatchObject({ status: 'renamed', oldPath: 'f/0000.txt', newPath: 'moved.txt' });
    expect(changeCounters()).toMatchObject({ sidesRead: 4, detections: 0 });

    // A file edited since the list is read as it is now, still without listing again.
    resetChangeCounters();
    fs.appendFileSync(path.join(sandbox.path, 'f/0007.txt'), 'and more\n');
    expect(await fileDiffView(manager.sandbox(sandbox.id), { path: 'f/0007.txt' }, tmp)).toMatchObject({ additions: 2, newText: 'file 7\nmore\nand more\n' });
    expect(changeCounters()).toMatchObject({ sidesRead: 2, detections: 0 });
  }, 120_000);

  it('diffs each listed path against the list: one detection, then each changed file\'s sides', async () => {
    const { manager, plan } = newManager();
    const files = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}.txt`, `file ${i}\n`]));
    const original = strategy === 'git_worktree' ? gitRepo(files) : tempDir('bindery-orig-');
    if (strategy === 'copy_on_write') writeFiles(original, files);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
    for (let i = 0; i < 32; i++) fs.appendFileSync(path.join(sandbox.path, `f${i}.txt`), 'more\n');
    resetChangeCounters();
    // As a server opens them one by one: the list, then each of its paths.
    const { changes } = await manager.changes(sandbox.id);
    const diffs = [];
    for (const change of changes) diffs.push(await manager.diff(sandbox.id, change.path));
    expect(diffs).toHaveLength(32);
    expect(diffs.every((d) => d.kind === 'text' && d.additions === 1 && d.deletions === 0)).toBe(true);
    expect(changeCounters()).toMatchObject({ detections: 1, sidesRead: 2 * 32 + 2 * 32 });
  });

  it('diffs a whole sandbox in one look, each side read once, as each path alone diffs', async () => {
    const { manager, plan } = newManager();
    const files = { ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.txt`, `file ${i}\n`])), 'a.txt': tenLines('alpha'), 'gone.txt': 'gone\n', 'img.bin': '\u0000bin 1' };
    const original = strategy === 'git_worktree' ? gitRepo(files) : tempDir('bindery-orig-');
    if (strategy === 'copy_on_write') writeFiles(original, files);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
    for (let i = 0; i < 8; i++) fs.appendFileSync(path.join(sandbox.path, `f${i}.txt`), 'more\n');
    fs.rmSync(path.join(sandbox.path, 'a.txt'));
    fs.rmSync(path.join(sandbox.path, 'gone.txt'));
    writeFiles(sandbox.path, { 'a-renamed.txt': tenLines('alpha', 3), 'new.txt': 'new\nno newline', 'img.bin': '\u0000bin 2' });

    resetChangeCounters();
    const whole = await manager.diffs(sandbox.id);
    // 8 edits, a rename (two paths), an addition, a deletion and a binary: 13 paths, each side read once.
    expect(changeCounters()).toMatchObject({ detections: 1, sidesRead: 2 * 13 });
    const onlyNew = await manager.diffs(sandbox.id, 'new.txt');
    const { changes } = await manager.changes(sandbox.id);
    const alone = [];
    for (const change of changes) alone.push(await manager.diff(sandbox.id, change.path));
    expect(whole).toEqual(alone);
    expect(whole.map((d) => `${d.kind} ${d.path}`)).toEqual(['text a-renamed.txt', ...Array.from({ length: 8 }, (_, i) => `text f${i}.txt`), 'text gone.txt', 'binary img.bin', 'text new.txt']);
    expect(onlyNew).toEqual([alone.at(-1)]);
    // Against this process's list now (a server's): the list, then the one file.
    expect(await manager.diffs(sandbox.id, 'new.txt')).toEqual([alone.at(-1)]);
    expect(await manager.diffs(sandbox.id, 'a.txt')).toEqual([]);
  });

  it('pairs a rename with edits at git\'s 50% likeness, with its similarity and counts, and not below', async () => {
    const { manager, plan, dataDir } = newManager();
    const files = { 'a.txt': tenLines('alpha'), 'b.txt': tenLines('bravo'), 'keep.txt': 'keep\n' };
    const original = strategy === 'git_worktree' ? gitRepo(files) : tempDir('bindery-orig-');
    if (strategy === 'copy_on_write') writeFiles(original, files);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
    fs.rmSync(path.join(sandbox.path, 'a.txt'));
    fs.rmSync(path.join(sandbox.path, 'b.txt'));
    // 6 of 10 equal lines: 60% alike, a rename; 4 of 10: 40%, an addition and a deletion.
    writeFiles(sandbox.path, { 'a-renamed.txt': tenLines('alpha', 4), 'b-renamed.txt': tenLines('bravo', 6) });
    const { changes } = await manager.changes(sandbox.id);
    const shape = changes.map(({ path: p, oldPath, kind, similarity, additions, deletions }) => ({ path: p, oldPath, kind, similarity, additions, deletions }));
    expect(shape).toEqual([
      { path: 'a-renamed.txt', oldPath: 'a.txt', kind: 'renamed', similarity: 60, additions: 4, deletions: 4 },
      { path: 'b-renamed.txt', oldPath: null, kind: 'added', similarity: undefined, additions: 10, deletions: 0 },
      { path: 'b.txt', oldPath: null, kind: 'deleted', similarity: undefined, additions: 0, deletions: 10 },
    ]);
    const view = await fileDiffView(manager.sandbox(sandbox.id), { path: 'a.txt' }, path.join(dataDir, 'tmp'));
    expect(view).toMatchObject({ status: 'renamed', oldPath: 'a.txt', newPath: 'a-renamed.txt', additions: 4, deletions: 4, oldText: tenLines('alpha') });
  });
});
