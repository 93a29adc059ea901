import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { encodeName } from '../fs/index.ts';
import type { ChangedFile } from '../../../shared/dto.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

const ODD = ['with space.txt', 'new\nline.txt', '-leading-dash.txt', 'bad\udcffbyte.txt'];
const BIG = 5 * 1024 * 1024;

function byPath(changes: ChangedFile[]): Record<string, Partial<ChangedFile>> {
  return Object.fromEntries(changes.map((c) => [c.path, c]));
}

function seed(dir: string): void {
  writeFiles(dir, { 'keep.txt': 'same\n', 'edit.txt': 'a\nb\nc\n', 'remove.txt': 'gone soon\n', 'move-me.txt': 'moving content\n', 'mode.sh': 'echo hi\n', 'retype.txt': 'file\n', 'conflict.txt': 'base\n' });
  fs.writeFileSync(path.join(dir, 'big.bin'), Buffer.concat([Buffer.from([0]), randomBytes(BIG)]));
}

/** The same edits in any sandbox: every kind of change, odd names, a large binary. */
function edit(sandboxPath: string): void {
  writeFiles(sandboxPath, { 'edit.txt': 'a\nB\nc\nd\n', 'added.txt': 'one\ntwo\n' });
  fs.rmSync(path.join(sandboxPath, 'remove.txt'));
  fs.renameSync(path.join(sandboxPath, 'move-me.txt'), path.join(sandboxPath, 'moved.txt'));
  fs.chmodSync(path.join(sandboxPath, 'mode.sh'), 0o755);
  fs.rmSync(path.join(sandboxPath, 'retype.txt'));
  fs.symlinkSync('keep.txt', path.join(sandboxPath, 'retype.txt'));
  writeFiles(sandboxPath, { 'conflict.txt': 'sandbox\n' });
  for (const name of ODD) fs.writeFileSync(Buffer.concat([Buffer.from(`${sandboxPath}/`), encodeName(name)]), `odd ${name.length}\n`);
  const big = fs.readFileSync(path.join(sandboxPath, 'big.bin'));
  big[BIG - 1] = (big[BIG - 1]! + 1) % 256;
  fs.writeFileSync(path.join(sandboxPath, 'big.bin'), big);
}

const EXPECTED = {
  'edit.txt': { kind: 'modified', additions: 2, deletions: 1, binary: false, drift: 'clean' },
  'added.txt': { kind: 'added', additions: 2, deletions: 0, drift: 'clean' },
  'remove.txt': { kind: 'deleted', deletions: 1, drift: 'clean' },
  'moved.txt': { kind: 'renamed', oldPath: 'move-me.txt', drift: 'clean' },
  'mode.sh': { kind: 'mode_changed', newMode: 0o755, drift: 'clean' },
  'retype.txt': { kind: 'type_changed', oldType: 'file', newType: 'symlink' },
  'conflict.txt': { kind: 'modified', drift: 'conflict' },
  'big.bin': { kind: 'modified', binary: true, additions: null, size: BIG + 1 },
  ...Object.fromEntries(ODD.map((name) => [name, { kind: 'added', additions: 1 }])),
};

describe.each(['copy_on_write', 'git_worktree'] as const)('changes with %s', (strategy) => {
  function original(): string {
    if (strategy === 'git_worktree') {
      const repo = gitRepo({ '.gitignore': 'ignored/\n' });
      seed(repo);
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', 'seed');
      return repo;
    }
    const dir = tempDir('bindery-orig-');
    seed(dir);
    return dir;
  }

  it('lists a file replaced by a folder and a folder replaced by a file as what went and what came', async () => {
    const { manager, plan } = newManager();
    const repo = original();
    writeFiles(repo, { 'nest/a.txt': 'a\n', 'nest/deeper/b.txt': 'b\n' });
    if (strategy === 'git_worktree') {
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', 'nest');
    }
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: strategy });
    fs.rmSync(path.join(sandbox.path, 'keep.txt'));
    writeFiles(sandbox.path, { 'keep.txt/inside.txt': 'inside\n' });
    fs.rmSync(path.join(sandbox.path, 'nest'), { recursive: true });
    writeFiles(sandbox.path, { nest: 'a file now\n' });
    const found = (await manager.changes(sandbox.id)).changes;
    expect(found.map((c) => [c.path, c.kind, c.drift])).toEqual([
      ['keep.txt', 'deleted', 'clean'],
      ['keep.txt/inside.txt', 'added', 'clean'],
      // The original's folder is still there: a commit cannot put a file in its place, and says so.
      ['nest', 'added', 'conflict'],
      ['nest/a.txt', 'deleted', 'clean'],
      ['nest/deeper/b.txt', 'deleted', 'clean'],
    ]);
    expect(found.find((c) => c.path === 'nest')?.driftReason).toMatch(/has a folder or special file at this path, which a commit does not replace: commit the deletions inside the folder first/);
    const diff = await manager.diff(sandbox.id, 'keep.txt');
    expect(diff).toMatchObject({ kind: 'text', deletions: 1, additions: 0 });
    // The file goes first, then the folder that replaced it can come.
    expect(await manager.commit(sandbox.id, { paths: ['keep.txt'] })).toMatchObject({ kind: 'committed' });
    expect(await manager.commit(sandbox.id, { paths: ['keep.txt/inside.txt'] })).toMatchObject({ kind: 'committed' });
    expect(fs.readFileSync(path.join(repo, 'keep.txt/inside.txt'), 'utf8')).toBe('inside\n');
    // Likewise the folder's files go first, and the folder with them; then the file that replaced it can come.
    expect(await manager.commit(sandbox.id, { paths: ['nest/'] })).toMatchObject({ kind: 'committed', commit: { deleted: ['nest/a.txt', 'nest/deeper/b.txt'], written: [] } });
    expect(fs.existsSync(path.join(repo, 'nest'))).toBe(false);
    expect((await manager.changes(sandbox.id)).changes.find((c) => c.path === 'nest')).toMatchObject({ kind: 'added', drift: 'clean' });
    expect(await manager.commit(sandbox.id, { paths: ['nest'] })).toMatchObject({ kind: 'committed' });
    expect(fs.readFileSync(path.join(repo, 'nest'), 'utf8')).toBe('a file now\n');
  });

  it('lists every kind of change, odd names and large binaries, each clean or in conflict', async () => {
    const { manager, plan } = newManager();
    const repo = original();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: strategy });
    expect(sandbox.strategy).toBe(strategy);
    edit(sandbox.path);
    if (strategy === 'git_worktree') writeFiles(sandbox.path, { 'ignored/build.log': 'not a change\n' });
    writeFiles(repo, { 'conflict.txt': 'original moved on\n' });
    const { changes, violation } = await manager.changes(sandbox.id);
    expect(violation).toBeNull();
    expect(byPath(changes)).toMatchObject(EXPECTED);
    expect(changes.map((c) => c.path).sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(byPath(changes)['conflict.txt']?.driftReason).toMatch(/changed in .* after the sandbox was made/);
  });

  it('marks a path whose original already equals the sandbox as applied, and a created one as conflict', async () => {
    const { manager, plan } = newManager();
    const repo = original();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: strategy });
    writeFiles(sandbox.path, { 'edit.txt': 'same edit\n', 'fresh.txt': 'sandbox\n' });
    writeFiles(repo, { 'edit.txt': 'same edit\n', 'fresh.txt': 'original\n' });
    expect(byPath((await manager.changes(sandbox.id)).changes)).toMatchObject({
      'edit.txt': { drift: 'applied' },
      'fresh.txt': { drift: 'conflict', driftReason: expect.stringMatching(/was created/) },
    });
  });

  it('calls a rename applied only when both halves are: its new path already there still leaves the old one to delete', async () => {
    const { manager, plan } = newManager();
    const repo = original();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: strategy });
    fs.renameSync(path.join(sandbox.path, 'move-me.txt'), path.join(sandbox.path, 'moved.txt'));
    writeFiles(repo, { 'moved.txt': 'moving content\n' });
    expect(byPath((await manager.changes(sandbox.id)).changes)['moved.txt']).toMatchObject({ kind: 'renamed', drift: 'clean' });
    await manager.commit(sandbox.id);
    expect(fs.existsSync(path.join(repo, 'move-me.txt'))).toBe(false);
    expect((await manager.changes(sandbox.id)).changes.every((change) => change.drift === 'applied')).toBe(true);
  });

  it('gives a unified diff per file, binary files by size', async () => {
    const { manager, plan } = newManager();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original(), sandboxStrategy: strategy });
    edit(sandbox.path);
    const text = await manager.diff(sandbox.id, 'edit.txt');
    expect(text).toMatchObject({ kind: 'text', against: 'base', additions: 2, deletions: 1 });
    expect(text.kind === 'text' && text.patch).toContain('-b\n+B\n c\n+d');
    expect(await manager.diff(sandbox.id, 'big.bin')).toMatchObject({ kind: 'binary', oldSize: BIG + 1, newSize: BIG + 1 });
    const odd = await manager.diff(sandbox.id, 'new\nline.txt');
    expect(odd).toMatchObject({ kind: 'text', additions: 1, deletions: 0 });
    await expect(manager.diff(sandbox.id, 'keep.txt')).rejects.toThrow(/has no change/);
  });

  it('diffs one path as the full list describes it, a rename by either of its paths', async () => {
    const { manager, plan } = newManager();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original(), sandboxStrategy: strategy });
    edit(sandbox.path);
    const listed = byPath((await manager.changes(sandbox.id)).changes);
    for (const rel of ['edit.txt', 'added.txt', 'remove.txt', 'mode.sh']) {
      const diff = await manager.diff(sandbox.id, rel);
      expect(diff).toMatchObject({ path: rel, oldPath: null });
      if (diff.kind === 'text') expect({ additions: diff.additions, deletions: diff.deletions }).toEqual({ additions: listed[rel]?.additions, deletions: listed[rel]?.deletions });
    }
    for (const rel of ['moved.txt', 'move-me.txt']) expect(await manager.diff(sandbox.id, rel)).toMatchObject({ path: 'moved.txt', oldPath: 'move-me.txt', kind: 'text', additions: 0, deletions: 0 });
  });

  it('pairs the rename of a file too large to hold in memory', async () => {
    const { manager, plan } = newManager();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original(), sandboxStrategy: strategy });
    fs.renameSync(path.join(sandbox.path, 'big.bin'), path.join(sandbox.path, 'big-moved.bin'));
    expect((await manager.changes(sandbox.id)).changes.map((c) => [c.kind, c.oldPath, c.path])).toEqual([['renamed', 'big.bin', 'big-moved.bin']]);
  });

  it('diffs a modified file whose name holds a newline: one header line each, the counts of the list', async () => {
    const { manager, plan } = newManager();
    const name = 'new\nline.txt';
    const dir = original();
    fs.writeFileSync(path.join(dir, name), 'a\nb\n');
    if (strategy === 'git_worktree') {
      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'odd name');
    }
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: dir, sandboxStrategy: strategy });
    fs.writeFileSync(path.join(sandbox.path, name), 'a\nB\n');
    expect(byPath((await manager.changes(sandbox.id)).changes)[name]).toMatchObject({ kind: 'modified', additions: 1, deletions: 1 });
    const diff = await manager.diff(sandbox.id, name);
    expect(diff).toMatchObject({ kind: 'text', additions: 1, deletions: 1 });
    expect(diff.kind === 'text' && diff.patch.split('\n').slice(0, 2)).toEqual(['--- "a/new\\nline.txt"', '+++ "b/new\\nline.txt"']);
  });
});
