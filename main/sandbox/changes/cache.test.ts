import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { ChangeCache } from './cache.ts';
import { wallClockRule } from './racy-window.ts';
import { detectChanges } from './detect.ts';
import { encodeName } from '../fs/index.ts';
import { readEntry, type DiskEntry } from './content.ts';
import type { SandboxInfo } from '../../../shared/dto.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

/** A racy window short enough for a test, with pauses well past it before each settled look. */
const RACY_MS = 40;
const SETTLE = () => sleep(RACY_MS * 3);

const SEED = { 'folder/inner.txt': 'inner\n', 'twin-a.txt': 'twin\n', 'twin-b.txt': 'twin\n', 'keep.txt': 'same\n', 'edit.txt': 'a\nb\nc\n', 'remove.txt': 'gone soon\n', 'move-me.txt': 'moving content\n', 'mode.sh': 'echo hi\n', 'conflict.txt': 'base\n', 'later.txt': 'aaaa\n' };

/** Every kind of change: edit, add, delete, rename, mode, type, an odd name, and a conflict with the original. */
function edit(sandbox: SandboxInfo): void {
  writeFiles(sandbox.path, { 'edit.txt': 'a\nB\nc\nd\n', 'added.txt': 'one\ntwo\n', 'conflict.txt': 'sandbox\n' });
  fs.rmSync(path.join(sandbox.path, 'remove.txt'));
  fs.renameSync(path.join(sandbox.path, 'move-me.txt'), path.join(sandbox.path, 'moved.txt'));
  fs.chmodSync(path.join(sandbox.path, 'mode.sh'), 0o755);
  fs.rmSync(path.join(sandbox.path, 'keep.txt'));
  fs.symlinkSync('edit.txt', path.join(sandbox.path, 'keep.txt'));
  fs.writeFileSync(Buffer.concat([Buffer.from(`${sandbox.path}/`), encodeName('bad\udcffbyte.txt')]), 'odd\n');
  writeFiles(sandbox.originalPath, { 'conflict.txt': 'original\n' });
}

async function sandboxOf(strategy: 'copy_on_write' | 'git_worktree') {
  const { manager, plan, dataDir } = newManager();
  const original = strategy === 'git_worktree' ? gitRepo(SEED) : tempDir('bindery-original-');
  if (strategy === 'copy_on_write') writeFiles(original, SEED);
  const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
  return { sandbox, tempDir: path.join(dataDir, 'tmp') };
}

describe.each(['copy_on_write', 'git_worktree'] as const)('the change cache (%s)', (strategy) => {
  it('lists exactly what a fresh look lists, reading again only the paths that moved', async () => {
    const { sandbox, tempDir: temp } = await sandboxOf(strategy);
    edit(sandbox);
    await SETTLE();
    const cache = new ChangeCache(() => wallClockRule(RACY_MS));
    const fresh = () => detectChanges(sandbox, temp);
    const first = await detectChanges(sandbox, temp, cache);
    expect(first).toEqual(await fresh());
    expect(first.changes.map((c) => c.kind).sort()).toEqual(['added', 'added', 'deleted', 'mode_changed', 'modified', 'modified', 'renamed', 'type_changed']);
    const candidates = cache.stats().misses;
    expect(candidates).toBeGreaterThanOrEqual(first.changes.length);

    expect(await detectChanges(sandbox, temp, cache)).toEqual(first);
    expect(cache.stats()).toMatchObject({ hits: candidates, misses: candidates });

    // The same size and mtime put back: only the ctime tells. And the original moves under another path.
    const edited = path.join(sandbox.path, 'edit.txt');
    const { mtime } = fs.statSync(edited);
    fs.writeFileSync(edited, 'a\nX\nc\nd\n');
    fs.utimesSync(edited, mtime, mtime);
    writeFiles(sandbox.originalPath, { 'added.txt': 'made in the original too\n' });
    await SETTLE();
    const third = await detectChanges(sandbox, temp, cache);
    expect(third).toEqual(await fresh());
    expect(third.changes.find((c) => c.path === 'added.txt')).toMatchObject({ drift: 'conflict' });
    expect(cache.stats()).toMatchObject({ hits: 2 * candidates - 2, misses: candidates + 2 });
  });

  it('neither trusts nor keeps a path that changed within the racy window', async () => {
    const { sandbox, tempDir: temp } = await sandboxOf(strategy);
    writeFiles(sandbox.path, { 'later.txt': 'bbbb\n' });
    await SETTLE();
    // The window is a minute while the look right after the write runs: a slow git cannot outlast it.
    let window = RACY_MS;
    const cache = new ChangeCache(() => wallClockRule(window));
    await detectChanges(sandbox, temp, cache);
    expect(cache.stats().size).toBe(1);
    writeFiles(sandbox.path, { 'later.txt': 'cccc\n' });
    window = 60_000;
    const soon = await detectChanges(sandbox, temp, cache);
    expect(soon).toEqual(await detectChanges(sandbox, temp));
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 2, size: 0 });
    window = RACY_MS;
    await SETTLE();
    await detectChanges(sandbox, temp, cache);
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 3, size: 1 });
  });

  it.runIf(process.platform === 'linux')('trusts the stats of a local filesystem once the kernel clock has moved past them, not seconds later', async () => {
    const { sandbox, tempDir: temp } = await sandboxOf(strategy);
    writeFiles(sandbox.path, { 'later.txt': 'bbbb\n', 'edit.txt': 'edited\n' });
    // A few kernel ticks (1-10 ms each) and the two files are older than any look from now on.
    await sleep(60);
    const cache = ChangeCache.forSandbox(sandbox, temp);
    const first = await detectChanges(sandbox, temp, cache);
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 2, size: 2 });
    expect(await detectChanges(sandbox, temp, cache)).toEqual(first);
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 2, size: 2 });
    // A change is read again; until the clock moves past it, it is not kept (the same tick could hold a second write).
    const look = cache.beginLook();
    writeFiles(sandbox.path, { 'edit.txt': 'edited again\n' });
    cache.keep(look, 'edit.txt', [await readEntry(path.join(sandbox.path, 'edit.txt')), await readEntry(path.join(sandbox.originalPath, 'edit.txt'))], () => cache.stamp(look, path.join(sandbox.path, 'edit.txt'), path.join(sandbox.originalPath, 'edit.txt'), 'ctx'), { change: null, addedId: null, deletedId: null }, Date.now());
    expect(cache.stats().size).toBe(1);
    expect((await detectChanges(sandbox, temp, cache)).changes.find((c) => c.path === 'edit.txt')?.additions).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 3, misses: 3 });
    await sleep(60);
    await detectChanges(sandbox, temp, cache);
    const before = cache.stats();
    await detectChanges(sandbox, temp, cache);
    expect(cache.stats()).toMatchObject({ hits: before.hits + 2, misses: before.misses, size: 2 });
  });

  it('forgets paths that are no longer candidates', async () => {
    const { sandbox, tempDir: temp } = await sandboxOf(strategy);
    writeFiles(sandbox.path, { 'later.txt': 'bbbb\n', 'edit.txt': 'edited\n' });
    await SETTLE();
    const cache = new ChangeCache(() => wallClockRule(RACY_MS));
    expect((await detectChanges(sandbox, temp, cache)).changes).toHaveLength(2);
    writeFiles(sandbox.path, { 'later.txt': SEED['later.txt'] });
    await SETTLE();
    expect((await detectChanges(sandbox, temp, cache)).changes.map((c) => c.path)).toEqual(['edit.txt']);
    // A copy still lists the rewritten file as a candidate (its ctime moved), with no change; git does not.
    expect(cache.stats().size).toBe(strategy === 'git_worktree' ? 1 : 2);
  });

  it('pairs renames as a fresh look does, whichever paths it read again', async () => {
    const { sandbox, tempDir: temp } = await sandboxOf(strategy);
    // Two deletions with the content of one addition: a fresh look pairs the first in path order.
    fs.rmSync(path.join(sandbox.path, 'twin-a.txt'));
    fs.rmSync(path.join(sandbox.path, 'twin-b.txt'));
    writeFiles(sandbox.path, { 'twin-c.txt': SEED['twin-a.txt'] });
    await SETTLE();
    const cache = new ChangeCache(() => wallClockRule(RACY_MS));
    const first = await detectChanges(sandbox, temp, cache);
    expect(first.changes.map((c) => [c.kind, c.oldPath, c.path])).toEqual([
      ['deleted', null, 'twin-b.txt'],
      ['renamed', 'twin-a.txt', 'twin-c.txt'],
    ]);
    // Only the original's twin-a.txt moves (its ctime): it alone is read again.
    fs.chmodSync(path.join(sandbox.originalPath, 'twin-a.txt'), 0o644);
    await SETTLE();
    expect(await detectChanges(sandbox, temp, cache)).toEqual(first);
  });

  it('copes with a folder replaced by a file, as a fresh look does', async () => {
    const { sandbox, tempDir: temp } = await sandboxOf(strategy);
    fs.rmSync(path.join(sandbox.path, 'folder'), { recursive: true });
    writeFiles(sandbox.path, { folder: 'now a file\n' });
    await SETTLE();
    const cache = new ChangeCache(() => wallClockRule(RACY_MS));
    expect(await detectChanges(sandbox, temp, cache)).toEqual(await detectChanges(sandbox, temp));
  });
});

describe('reading ahead while git lists a worktree sandbox', () => {
  it('reads the paths still moving at the last look again, and lists what a fresh look lists', async () => {
    const { sandbox, tempDir: temp } = await sandboxOf('git_worktree');
    // A racy window no test outlasts: every path read stays "moving".
    const cache = new ChangeCache(() => wallClockRule(60_000));
    writeFiles(sandbox.path, { 'later.txt': 'bbbb\n', 'edit.txt': 'a\nb\n' });
    await detectChanges(sandbox, temp, cache);
    expect(cache.unsettled().sort()).toEqual(['edit.txt', 'later.txt']);

    // Read ahead, later.txt is back to its base (no longer a candidate) and edit.txt changed again.
    writeFiles(sandbox.path, { 'later.txt': SEED['later.txt'], 'edit.txt': 'a\nb\nc\nd\ne\n', 'new.txt': 'new\n' });
    const second = await detectChanges(sandbox, temp, cache);
    expect(second).toEqual(await detectChanges(sandbox, temp));
    expect(second.changes.map((c) => [c.path, c.additions, c.deletions])).toEqual([
      ['edit.txt', 2, 0],
      ['new.txt', 1, 0],
    ]);
    expect(cache.unsettled().sort()).toEqual(['edit.txt', 'new.txt']);
  });
});

describe('ChangeCache', () => {
  it('offers the paths it read but could not keep for reading ahead, while they stay candidates', () => {
    const root = tempDir('bindery-cache-');
    const cache = new ChangeCache(() => wallClockRule(60_000));
    const look = cache.beginLook();
    const stamp = () => cache.stamp(look, path.join(root, 'a'), path.join(root, 'b'), 'ctx');
    const listed = { change: null, addedId: null, deletedId: null };
    const moving: DiskEntry = { type: 'file', mode: 0o644, size: 1, ino: 1, mtimeMs: Date.now(), ctimeMs: Date.now(), data: Buffer.from('x'), sha256: 'x', blobId: 'y', binary: false };
    cache.keep(look, 'one', [moving, { type: null }], stamp, listed, Date.now());
    cache.keep(look, 'two', [moving, { type: null }], stamp, listed, Date.now());
    expect(cache.unsettled()).toEqual(['one', 'two']);
    cache.retainOnly(new Set(['two']));
    expect(cache.unsettled()).toEqual(['two']);
    const settled = new ChangeCache(() => wallClockRule(0));
    const settledLook = settled.beginLook();
    settled.keep(settledLook, 'gone', [{ type: null }, { type: null }], () => settled.stamp(settledLook, path.join(root, 'a'), path.join(root, 'b'), 'ctx'), listed, Date.now());
    expect(settled.unsettled()).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('judges what a look read by the clock as that look began, though another began since', async () => {
    const root = tempDir('bindery-cache-');
    writeFiles(root, { 'sandbox.txt': 'one\n' });
    const cache = ChangeCache.forSandbox({ path: root, originalPath: root }, tempDir('bindery-cache-data-'));
    const file = path.join(root, 'sandbox.txt');
    const listed = { change: null, addedId: null, deletedId: null };
    const first = cache.beginLook();
    writeFiles(root, { 'sandbox.txt': 'two\n' });
    const read = await readEntry(file);
    await sleep(60);
    // A look that begins now would trust the write; the first look, which began before it, must not.
    const second = cache.beginLook();
    cache.keep(first, 'p', [read, { type: null }], () => cache.stamp(first, file, path.join(root, 'absent.txt'), 'ctx'), listed, Date.now());
    expect(cache.stats().size).toBe(0);
    cache.keep(second, 'p', [read, { type: null }], () => cache.stamp(second, file, path.join(root, 'absent.txt'), 'ctx'), listed, Date.now());
    expect(cache.stats().size).toBe(1);
  });

  it('judges every read of a look by the rule that look took as it began', async () => {
    const { sandbox, tempDir: temp } = await sandboxOf('git_worktree');
    writeFiles(sandbox.path, { 'edit.txt': 'edited\n', 'later.txt': 'bbbb\n' });
    // Each rule notes when it is asked; none is taken but by beginning a look.
    const asked: number[] = [];
    let taken = 0;
    const cache = new ChangeCache(() => {
      const id = taken++;
      return { settled: () => (asked.push(id), true), racyFrom: () => Infinity };
    });
    await detectChanges(sandbox, temp, cache);
    const firstLook = asked.length;
    await detectChanges(sandbox, temp, cache);
    expect(taken).toBe(2);
    expect(firstLook).toBeGreaterThan(0);
    expect(asked).toEqual([...Array<number>(firstLook).fill(0), ...Array<number>(asked.length - firstLook).fill(1)]);
    expect(asked.length).toBeGreaterThan(firstLook);
  });

  it('takes its rule afresh at each look: by the next one, a root may be another filesystem', async () => {
    const { sandbox, tempDir: temp } = await sandboxOf('copy_on_write');
    let taken = 0;
    const cache = new ChangeCache(() => {
      taken++;
      return wallClockRule(0);
    });
    await detectChanges(sandbox, temp, cache);
    await detectChanges(sandbox, temp, cache);
    expect(taken).toBe(2);
  });

  it('does not keep what was read when the stamp after the read does not describe it (an entry that came and went)', () => {
    const root = tempDir('bindery-cache-');
    const cache = new ChangeCache(() => wallClockRule(0));
    const look = cache.beginLook();
    const [inSandbox, inOriginal] = [path.join(root, 'sandbox.txt'), path.join(root, 'original.txt')];
    const stamp = () => cache.stamp(look, inSandbox, inOriginal, 'ctx');
    expect(stamp().settled).toBe(true);
    const seen: DiskEntry = { type: 'file', mode: 0o644, size: 3, ino: 42, mtimeMs: 1, ctimeMs: 1, data: Buffer.from('hi\n'), sha256: 'x', blobId: 'y', binary: false };
    const listed = { change: null, addedId: null, deletedId: null };
    cache.keep(look, 'p', [seen, { type: null }], stamp, listed, Date.now());
    expect(cache.stats().size).toBe(0);
    cache.keep(look, 'p', [{ type: null }, { type: null }], stamp, listed, Date.now());
    expect(cache.stats().size).toBe(1);
    expect(cache.lookup('p', stamp)).toBe(listed);
    expect(cache.lookup('p', () => cache.stamp(look, inSandbox, inOriginal, 'other base'))).toBeUndefined();
  });

  it('judges whether a read was settled by when it began, not when it is kept', async () => {
    const root = tempDir('bindery-cache-');
    writeFiles(root, { 'sandbox.txt': 'one\n' });
    const file = path.join(root, 'sandbox.txt');
    await sleep(5);
    const cache = new ChangeCache(() => wallClockRule(0));
    const stat = fs.lstatSync(file);
    const read: DiskEntry = { type: 'file', mode: 0o644, size: stat.size, ino: stat.ino, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, data: null, sha256: 'x', blobId: 'y', binary: false };
    const listed = { change: null, addedId: null, deletedId: null };
    const look = cache.beginLook();
    const stamp = () => cache.stamp(look, file, path.join(root, 'absent.txt'), 'ctx');
    const changedAt = Math.max(stat.mtimeMs, stat.ctimeMs);
    // Begun in the very tick of the change (as a read ahead of a slow git status can be), it is not trusted however late it is kept.
    cache.keep(look, 'p', [read, { type: null }], stamp, listed, changedAt);
    expect(cache.stats().size).toBe(0);
    cache.keep(look, 'p', [read, { type: null }], stamp, listed, changedAt + 1);
    expect(cache.stats().size).toBe(1);
  });

  it('does not keep a file whose stats moved while it was read', async () => {
    const root = tempDir('bindery-cache-');
    writeFiles(root, { 'sandbox.txt': 'one\n' });
    const cache = new ChangeCache(() => wallClockRule(0));
    const file = path.join(root, 'sandbox.txt');
    const stat = fs.lstatSync(file);
    const read: DiskEntry = { type: 'file', mode: 0o644, size: stat.size, ino: stat.ino, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, data: null, sha256: 'x', blobId: 'y', binary: false };
    const listed = { change: null, addedId: null, deletedId: null };
    const look = cache.beginLook();
    const stamp = () => cache.stamp(look, file, path.join(root, 'absent.txt'), 'ctx');
    fs.chmodSync(file, 0o600);
    await sleep(10);
    cache.keep(look, 'p', [read, { type: null }], stamp, listed, Date.now());
    expect(cache.stats().size).toBe(0);
    cache.keep(look, 'p', [{ ...read, ctimeMs: fs.lstatSync(file).ctimeMs }, { type: null }], stamp, listed, Date.now());
    expect(cache.stats().size).toBe(1);
  });
});
