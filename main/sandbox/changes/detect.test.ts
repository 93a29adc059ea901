import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../shared/errors.ts';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { baselineMargin, copyCandidates } from './copy-candidates.ts';
import { detectChanges, inspectChanges } from './detect.ts';
import { encodeName } from '../fs/index.ts';
import { metaDir } from '../provision/index.ts';
import { manifestFile, RACY_WINDOW_MS, readManifest, writeBaseline } from './manifest.ts';
import { scanChangedSince } from '../fs/index.ts';
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

describe('copy change detection since the baseline', () => {
  it('finds exactly what the full scan finds, looking only at entries changed since provisioning', async () => {
    const { manager, plan } = newManager();
    const dir = tempDir('bindery-orig-');
    writeFiles(dir, Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`d${i % 5}/sub/f${i}.txt`, `${i}\n`])));
    writeFiles(dir, { 'top.txt': 'top\n', 'gone/a.txt': 'a', 'gone/deeper/b.txt': 'b' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: dir, sandboxStrategy: 'copy_on_write' });
    // Let the copies age past the safety margin, then mark provisioning as just finished.
    await new Promise((resolve) => setTimeout(resolve, 300));
    writeBaseline(metaDir(sandbox.path));
    const baseline = readManifest(manifestFile(metaDir(sandbox.path))).baselineMs!;
    writeFiles(sandbox.path, { 'd1/sub/f1.txt': 'changed\n', 'new/dir/n.txt': 'n\n' });
    fs.rmSync(path.join(sandbox.path, 'gone'), { recursive: true });
    fs.rmSync(path.join(sandbox.path, 'top.txt'));
    fs.chmodSync(path.join(sandbox.path, 'd2/sub/f2.txt'), 0o700);
    fs.renameSync(path.join(sandbox.path, 'd3/sub/f3.txt'), path.join(sandbox.path, 'd3/f3-moved.txt'));
    // A file replaced by a folder, and a folder (with a subfolder) replaced by a file.
    fs.rmSync(path.join(sandbox.path, 'd4/sub/f4.txt'));
    writeFiles(sandbox.path, { 'd4/sub/f4.txt/x.txt': 'x\n' });
    fs.rmSync(path.join(sandbox.path, 'd0'), { recursive: true });
    writeFiles(sandbox.path, { d0: 'a file\n' });
    const fast = await copyCandidates(manager.sandbox(sandbox.id));
    const full = await copyCandidates(manager.sandbox(sandbox.id), { portable: true });
    expect([...fast.keys()].sort()).toEqual([...full.keys()].sort());
    const looked = await scanChangedSince(sandbox.path, baseline - 100);
    if (looked) expect(looked.length).toBeLessThan(20);
    const inD0 = Array.from({ length: 12 }, (_, k) => `d0/sub/f${k * 5}.txt`);
    const expected = ['d0', ...inD0, 'd1/sub/f1.txt', 'd2/sub/f2.txt', 'd3/f3-moved.txt', 'd3/sub/f3.txt', 'd4/sub/f4.txt', 'd4/sub/f4.txt/x.txt'];
    expect([...fast.keys()].sort()).toEqual([...expected, 'gone/a.txt', 'gone/deeper/b.txt', 'new/dir/n.txt', 'top.txt'].sort());
  });

  it('catches a same-size write that put the old mtime back (like cp -p or touch -r), in the sandbox or in the original', async () => {
    const { manager, plan } = newManager();
    const dir = tempDir('bindery-orig-');
    writeFiles(dir, { 'a.txt': 'aaaa\n', 'b.txt': 'bbbb\n' });
    // Older than the racy window, so the copy is trusted by its stat and no hash stands guard.
    await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 100));
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: dir, sandboxStrategy: 'copy_on_write' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const rewrite = (file: string, text: string) => {
      const before = fs.statSync(file);
      fs.writeFileSync(file, text);
      fs.utimesSync(file, before.atime, before.mtime);
    };
    rewrite(path.join(sandbox.path, 'a.txt'), 'AAAA\n');
    expect((await manager.changes(sandbox.id)).changes.map((c) => [c.path, c.kind])).toEqual([['a.txt', 'modified']]);
    // The person does the same to the original: the tool's edit no longer applies cleanly over it.
    rewrite(path.join(dir, 'a.txt'), 'USER\n');
    expect((await manager.changes(sandbox.id)).changes.map((c) => [c.path, c.drift])).toEqual([['a.txt', 'conflict']]);
    await expect(manager.commit(sandbox.id)).rejects.toBeInstanceOf(ConflictError);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('USER\n');
  });

  it('catches a write made the moment provisioning returns, without looking at the files the copy itself wrote', async () => {
    const { manager, plan } = newManager();
    const dir = tempDir('bindery-orig-');
    writeFiles(dir, Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`d${i % 4}/f${i}.txt`, `${i}\n`])));
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: dir, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'd1/f1.txt': 'changed at once\n' });
    expect([...(await copyCandidates(manager.sandbox(sandbox.id))).keys()]).toEqual(['d1/f1.txt']);
    const baseline = readManifest(manifestFile(metaDir(sandbox.path))).baselineMs!;
    const looked = await scanChangedSince(sandbox.path, baseline - baselineMargin(baseline), { expected: 10 });
    // Files copied within the baseline's clock tick may be looked at too; not the hundreds before it.
    expect(looked?.map((e) => e.rel)).toContain('d1/f1.txt');
    expect(looked?.length).toBeLessThan(50);
  });
});

describe('changes of special sandboxes', () => {
  it('catches a same-size edit that keeps the mtime of a file copied within the racy window', async () => {
    const { manager, plan } = newManager();
    const dir = tempDir('bindery-orig-');
    writeFiles(dir, { 'fresh.txt': 'abc\n', 'old.txt': 'old\n' });
    const past = new Date(Date.now() - 3_600_000);
    fs.utimesSync(path.join(dir, 'old.txt'), past, past);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: dir, sandboxStrategy: 'copy_on_write' });
    const file = path.join(sandbox.path, 'fresh.txt');
    const { mtime } = fs.statSync(file);
    fs.writeFileSync(file, 'xyz\n');
    fs.utimesSync(file, mtime, mtime);
    expect((await manager.changes(sandbox.id)).changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['modified fresh.txt']);
  });

  it('does not take the line endings git converts in a worktree original for edits of its own', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ '.gitattributes': '*.txt text eol=crlf\n', 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n' });
    // Checked out again, the files have CRLF endings in the work tree while their blobs keep LF.
    fs.rmSync(path.join(repo, 'a.txt'));
    fs.rmSync(path.join(repo, 'b.txt'));
    git(repo, 'checkout', '--', '.');
    expect(fs.readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('one\r\ntwo\r\n');
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox.strategy).toBe('git_worktree');
    writeFiles(sandbox.path, { 'a.txt': 'one\r\nTWO\r\n' });
    writeFiles(repo, { 'b.txt': 'person\r\n' });
    writeFiles(sandbox.path, { 'b.txt': 'tool\r\n' });
    expect(byPath((await manager.changes(sandbox.id)).changes)).toMatchObject({ 'a.txt': { drift: 'clean', additions: 1, deletions: 1 }, 'b.txt': { drift: 'conflict' } });
    await manager.commit(sandbox.id, { paths: ['a.txt'] });
    expect(fs.readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('one\r\nTWO\r\n');
  });

  it('diffs a copy whose base is gone against the original as it is now, even when it holds nothing there', async () => {
    const { manager, plan } = newManager();
    const dir = tempDir('bindery-orig-');
    writeFiles(dir, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: dir, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    fs.rmSync(path.join(dir, 'a.txt'));
    writeFiles(dir, { 'b.txt': 'user\n' });
    expect(await manager.diff(sandbox.id, 'a.txt')).toMatchObject({ kind: 'text', against: 'original', additions: 1, deletions: 0 });
    expect(await manager.diff(sandbox.id, 'b.txt')).toMatchObject({ kind: 'text', against: 'original', additions: 1, deletions: 1 });
  });

  it('calls a mode change applied only when the original has that very mode', async () => {
    const { manager, plan } = newManager();
    const dir = tempDir('bindery-orig-');
    writeFiles(dir, { 'a.txt': 'a\n' });
    fs.chmodSync(path.join(dir, 'a.txt'), 0o644);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: dir, sandboxStrategy: 'copy_on_write' });
    fs.chmodSync(path.join(sandbox.path, 'a.txt'), 0o600);
    fs.chmodSync(path.join(dir, 'a.txt'), 0o664);
    expect((await manager.changes(sandbox.id)).changes).toMatchObject([{ path: 'a.txt', kind: 'mode_changed', drift: 'conflict' }]);
    fs.chmodSync(path.join(dir, 'a.txt'), 0o600);
    expect((await manager.changes(sandbox.id)).changes).toMatchObject([{ path: 'a.txt', drift: 'applied' }]);
  });

  it('reports changes in a read_only sandbox as a violation', async () => {
    const { manager, plan } = newManager();
    const dir = tempDir('bindery-orig-');
    writeFiles(dir, { 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: dir, sandboxStrategy: 'copy_on_write', access: 'read_only' });
    expect((await manager.changes(sandbox.id)).changes).toEqual([]);
    fs.chmodSync(path.join(sandbox.path), 0o755);
    writeFiles(sandbox.path, { 'b.txt': 'sneaky\n' });
    const result = await manager.changes(sandbox.id);
    expect(result.violation).toMatch(/read_only but 1 path/);
  });

  it('sees a commit made inside a worktree sandbox as changes against the base', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'a.txt': 'A\n', 'b.txt': 'b\n' });
    git(sandbox.path, 'add', '-A');
    git(sandbox.path, 'commit', '-qm', 'tool commit');
    writeFiles(sandbox.path, { 'c.txt': 'c\n' });
    expect(byPath((await manager.changes(sandbox.id)).changes)).toMatchObject({
      'a.txt': { kind: 'modified' },
      'b.txt': { kind: 'added' },
      'c.txt': { kind: 'added' },
    });
  });

  it.each([false, true])('lists the files of a repository a tool made inside a worktree sandbox (tool commit: %s), so discard asks first', async (toolCommits) => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    writeFiles(sandbox.path, { 'vendor/lib/x.txt': 'tool work\n', 'vendor/lib/src/y.txt': 'more\n' });
    git(path.join(sandbox.path, 'vendor/lib'), 'init', '-q');
    if (toolCommits) {
      // HEAD moves: the changes come from a temporary index, where `add -A` makes the repository a gitlink.
      writeFiles(sandbox.path, { 'a.txt': 'A\n' });
      git(sandbox.path, 'commit', '-qam', 'tool commit');
    }
    const paths = (await manager.changes(sandbox.id)).changes.map((change) => change.path);
    expect(paths).toEqual(expect.arrayContaining(['vendor/lib/x.txt', 'vendor/lib/src/y.txt', 'vendor/lib/.git/HEAD']));
    expect(paths).not.toContain('vendor/lib');
    expect(await manager.discard(sandbox.id, {})).toMatchObject({ kind: 'needs_confirmation' });
  });
});

describe.each(['copy_on_write', 'git_worktree'] as const)('a change list longer than one reading slice (%s)', (strategy) => {
  it('lists what the commit path lists, renames paired across slices', async () => {
    const { manager, plan, dataDir } = newManager();
    const files = Object.fromEntries(Array.from({ length: 2600 }, (_, i) => [`f/${String(i).padStart(4, '0')}.txt`, `file ${i}\n`]));
    const original = strategy === 'git_worktree' ? gitRepo(files) : tempDir('bindery-orig-');
    if (strategy === 'copy_on_write') writeFiles(original, files);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: strategy });
    for (let i = 1; i < 2600; i++) fs.appendFileSync(path.join(sandbox.path, 'f', `${String(i).padStart(4, '0')}.txt`), 'more\n');
    fs.renameSync(path.join(sandbox.path, 'f/0000.txt'), path.join(sandbox.path, 'zz-moved.txt'));
    const listed = (await detectChanges(manager.sandbox(sandbox.id), path.join(dataDir, 'tmp'))).changes;
    expect(listed).toHaveLength(2600);
    expect(listed.find((c) => c.path === 'zz-moved.txt')).toMatchObject({ kind: 'renamed', oldPath: 'f/0000.txt' });
    expect(listed.filter((c) => c.kind === 'modified' && c.additions === 1 && c.deletions === 0)).toHaveLength(2599);
    const inspected = await inspectChanges(manager.sandbox(sandbox.id), path.join(dataDir, 'tmp'));
    expect(listed).toEqual(inspected.map((c) => c.change));
    // 2,600 files made, committed and read twice: past the default on a loaded machine.
  }, 120_000);
});
