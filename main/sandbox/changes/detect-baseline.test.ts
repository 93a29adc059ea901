import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../shared/errors.ts';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { baselineMargin, copyCandidates } from './copy-candidates.ts';
import { detectChanges, inspectChanges } from './detect.ts';
import { metaDir } from '../provision/index.ts';
import { manifestFile, RACY_WINDOW_MS, readManifest, writeBaseline } from './manifest.ts';
import { scanChangedSince } from '../fs/index.ts';
import type { ChangedFile } from '../../../shared/dto.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

/** Changes by path. */
function byPath(changes: ChangedFile[]): Record<string, Partial<ChangedFile>> {
  return Object.fromEntries(changes.map((change) => [change.path, change]));
}

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
