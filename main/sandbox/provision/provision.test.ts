import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../../shared/errors.ts';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { copyOnWorkers, type CopyJob } from './copy-workers.ts';
import { markerFile, metaDir } from './layout.ts';
import { manifestFile, readManifest } from '../changes/index.ts';
import { exists, gitFingerprint, newManager } from '../../testing/sandbox/harness.ts';

function plainDir(): string {
  const dir = tempDir('bindery-orig-');
  writeFiles(dir, { 'a.txt': 'alpha\n', 'sub/b.txt': 'beta\n', 'sub/deep/c.bin': '\0\x01binary' });
  fs.chmodSync(path.join(dir, 'a.txt'), 0o755);
  fs.symlinkSync('sub/b.txt', path.join(dir, 'link'));
  fs.symlinkSync('does-not-exist', path.join(dir, 'dangling'));
  return dir;
}

/** A folder on a filesystem that clones (see `.ci/run`); the clone test skips without one. */
const REFLINK_DIR = process.env.BINDERY_TEST_REFLINK_DIR;

describe('copy_on_write', () => {
  it.skipIf(!REFLINK_DIR)('clones where the original and the data folder share a filesystem that can, and says so', async () => {
    const base = fs.mkdtempSync(path.join(REFLINK_DIR!, 'bindery-provision-'));
    try {
      const original = path.join(base, 'original');
      writeFiles(original, { 'a.txt': 'alpha\n', 'sub/b.bin': '\0\x01binary' });
      fs.symlinkSync('sub/b.bin', path.join(original, 'link'));
      const { manager, plan, db } = newManager({ dataDir: path.join(base, 'data') });
      const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', resourceName: 'local/docs', originalPath: original, sandboxStrategy: 'copy_on_write' });
      db.close();
      expect(sandbox).toMatchObject({ strategy: 'copy_on_write', status: 'ready', copyMethod: 'clone' });
      expect(fs.readFileSync(path.join(sandbox.path, 'sub/b.bin'), 'latin1')).toBe('\0\x01binary');
      expect(fs.readlinkSync(path.join(sandbox.path, 'link'))).toBe('sub/b.bin');
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('copies files, modes and symlinks (as symlinks), records the copy method and a manifest', async () => {
    const { manager, plan } = newManager();
    const original = plainDir();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', resourceName: 'local/docs', originalPath: original, sandboxStrategy: 'copy_on_write' });
    expect(sandbox).toMatchObject({ strategy: 'copy_on_write', status: 'ready', access: 'read_write', fallbackReason: null });
    expect(['clone', 'copy']).toContain(sandbox.copyMethod);
    expect(sandbox.context.sandboxPath).toBe(sandbox.path);
    expect(path.basename(sandbox.path)).toBe('docs-r1');
    expect(fs.readFileSync(path.join(sandbox.path, 'sub/b.txt'), 'utf8')).toBe('beta\n');
    expect(fs.statSync(path.join(sandbox.path, 'a.txt')).mode & 0o777).toBe(0o755);
    expect(fs.readlinkSync(path.join(sandbox.path, 'link'))).toBe('sub/b.txt');
    expect(fs.readlinkSync(path.join(sandbox.path, 'dangling'))).toBe('does-not-exist');
    expect(fs.statSync(path.join(sandbox.path, 'sub/b.txt')).mtimeMs).toBeCloseTo(fs.statSync(path.join(original, 'sub/b.txt')).mtimeMs, 0);
    const manifest = readManifest(manifestFile(metaDir(sandbox.path)));
    expect([...manifest.keys()].sort()).toEqual(['a.txt', 'dangling', 'link', 'sub/b.txt', 'sub/deep/c.bin']);
    expect(manifest.get('link')).toMatchObject({ type: 'symlink', target: 'sub/b.txt' });
    // Just written, so racy: the hash decides for these.
    expect(manifest.get('a.txt')?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(fs.readFileSync(markerFile(sandbox.path), 'utf8'))).toMatchObject({ sandboxId: sandbox.id });
  });

  it('records its rows without waiting for the disk, flushes them afterwards, and leaves every other write waiting for it', async () => {
    const { manager, plan, db, store } = newManager();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: plainDir(), sandboxStrategy: 'copy_on_write' });
    expect(store.getSandbox(sandbox.id)?.status).toBe('ready');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    await expect(store.flushed()).resolves.toBeUndefined();
  });

  it('is idempotent per (plan, resource) and shares one sandbox between slots with the wider access', async () => {
    const { manager, plan } = newManager();
    const original = plainDir();
    const planId = plan();
    const request = { planId, resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' as const };
    const [first, concurrent] = await Promise.all([
      manager.getOrCreateSandbox({ ...request, access: 'read_only', slotName: 'config' }),
      manager.getOrCreateSandbox({ ...request, access: 'read_only', slotName: 'config' }),
    ]);
    expect(concurrent.id).toBe(first.id);
    expect(fs.statSync(path.join(first.path, 'sub/b.txt')).mode & 0o222).toBe(0);
    const shared = await manager.getOrCreateSandbox({ ...request, access: 'read_write', slotName: 'repo' });
    expect(shared).toMatchObject({ id: first.id, path: first.path, access: 'read_write', slotNames: ['config', 'repo'] });
    expect(fs.statSync(path.join(first.path, 'sub/b.txt')).mode & 0o200).toBe(0o200);
    expect(fs.statSync(path.join(first.path, 'a.txt')).mode & 0o777).toBe(0o755);
    expect((await manager.changes(first.id)).changes).toEqual([]);
    expect(manager.planSandboxes(planId)).toHaveLength(1);
    const other = await manager.getOrCreateSandbox({ ...request, planId: plan() });
    expect(other.id).not.toBe(first.id);
  });

  it('gives read_only sandboxes no write bits and write_only sandboxes an empty folder', async () => {
    const { manager, plan } = newManager();
    const original = plainDir();
    const ro = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write', access: 'read_only' });
    for (const rel of ['a.txt', 'sub', 'sub/deep/c.bin']) expect(fs.statSync(path.join(ro.path, rel)).mode & 0o222).toBe(0);
    const wo = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'git_worktree', access: 'write_only' });
    expect(fs.readdirSync(wo.path)).toEqual([]);
    expect(wo).toMatchObject({ strategy: 'copy_on_write', access: 'write_only' });
    expect(wo.fallbackReason).toMatch(/write_only/);
  });

  it('copies file by file on worker threads where cp is not used, exactly', async () => {
    const original = tempDir('bindery-big-');
    writeFiles(original, Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`d${i % 3}/f${i}.txt`, `file ${i}\n`])));
    const past = Date.now() / 1000 - 3600;
    const target = tempDir('bindery-copy-');
    for (let i = 0; i < 3; i++) fs.mkdirSync(path.join(target, `d${i}`));
    const jobs: CopyJob[] = Array.from({ length: 300 }, (_, i) => [path.join(original, `d${i % 3}/f${i}.txt`), path.join(target, `d${i % 3}/f${i}.txt`), past]);
    jobs.push([path.join(original, 'vanished.txt'), path.join(target, 'vanished.txt'), past]);
    let done = 0;
    const vanished = await copyOnWorkers(jobs, 0, { threads: 2, onDone: (n) => (done += n) });
    expect(done).toBe(301);
    expect([...vanished]).toEqual([path.join(original, 'vanished.txt')]);
    expect(fs.readFileSync(path.join(target, 'd2/f299.txt'), 'utf8')).toBe('file 299\n');
    expect(fs.statSync(path.join(target, 'd0/f0.txt')).mtimeMs / 1000).toBeCloseTo(past, 2);
  });

  it('copies large trees, exactly', async () => {
    const { manager, plan } = newManager();
    const original = tempDir('bindery-big-');
    writeFiles(original, Object.fromEntries(Array.from({ length: 2500 }, (_, i) => [`d${i % 7}/f${i}.txt`, `file ${i}\n`])));
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    for (const i of [0, 1234, 2499]) {
      const rel = `d${i % 7}/f${i}.txt`;
      expect(fs.readFileSync(path.join(sandbox.path, rel), 'utf8')).toBe(`file ${i}\n`);
      expect(fs.statSync(path.join(sandbox.path, rel)).mtimeMs).toBeCloseTo(fs.statSync(path.join(original, rel)).mtimeMs, 0);
    }
    expect((await manager.changes(sandbox.id)).changes).toEqual([]);
  });

  it.each([600, 2600])('reports progress and, when cancelled, leaves nothing behind (%i files)', async (count) => {
    const { manager, plan, db } = newManager();
    const original = tempDir('bindery-big-');
    writeFiles(original, Object.fromEntries(Array.from({ length: count }, (_, i) => [`d${i % 7}/f${i}.txt`, `file ${i}\n`])));
    const controller = new AbortController();
    const phases: string[] = [];
    const planId = plan();
    const provisioning = manager.getOrCreateSandbox({
      planId,
      resourceId: 'R1',
      originalPath: original,
      sandboxStrategy: 'copy_on_write',
      signal: controller.signal,
      onProgress: (p) => {
        phases.push(p.phase);
        if (p.phase === 'copying' && p.done > 100) controller.abort();
      },
    });
    await expect(provisioning).rejects.toBeInstanceOf(CancelledError);
    expect(phases).toContain('copying');
    expect(manager.planSandboxes(planId)).toEqual([]);
    expect(fs.existsSync(path.join(manager.layout.root, planId))).toBe(false);
    expect(db.prepare('SELECT count(*) AS n FROM sandboxes').get()).toEqual({ n: 0 });
  });

  it('refuses an original that holds the sandboxes folder, before making anything', async () => {
    const { manager, dataDir, plan } = newManager();
    writeFiles(dataDir, { 'notes.txt': 'n' });
    const planId = plan();
    for (const sandboxStrategy of ['copy_on_write', 'git_worktree'] as const) {
      const attempt = manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: dataDir, sandboxStrategy });
      await expect(attempt).rejects.toThrow(/contains Bindery's sandboxes folder .* so its sandbox would contain itself/);
    }
    expect(manager.planSandboxes(planId)).toEqual([]);
    expect(exists(path.join(manager.layout.root, planId))).toBe(false);
    const inPlace = await manager.getOrCreateSandbox({ planId, resourceId: 'R1', originalPath: dataDir, sandboxStrategy: 'none' });
    expect(inPlace.path).toBe(fs.realpathSync(dataDir));
  });

  it('lists FIFOs and sockets as not copied, leaves none of them in the sandbox, and copies the rest (cp and file by file)', async () => {
    const { manager, plan } = newManager();
    const server = net.createServer();
    const originals: string[] = [];
    try {
      for (const odd of [false, true]) {
        const original = tempDir('bindery-orig-');
        originals.push(original);
        writeFiles(original, { 'a.txt': 'a\n', 'run/keep.txt': 'k\n' });
        execFileSync('mkfifo', [path.join(original, 'run/pipe')]);
        // A top-level name that is not UTF-8 cannot be given to cp: that tree is copied file by file.
        if (odd) fs.writeFileSync(Buffer.concat([Buffer.from(`${original}/`), Buffer.from([0x66, 0xff])]), 'x');
      }
      // A unix socket's path is short (108 bytes): it is made where the first original is.
      await new Promise<void>((resolve) => server.listen(path.join(originals[0]!, 'sock'), resolve));
      for (const original of originals) {
        const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
        const expected = original === originals[0] ? ['run/pipe (FIFO)', 'sock (socket)'] : ['run/pipe (FIFO)'];
        expect({ files: [...sandbox.ignoredFiles].sort(), count: sandbox.ignoredCount }).toEqual({ files: expected, count: expected.length });
        expect(exists(path.join(sandbox.path, 'run/pipe')) || exists(path.join(sandbox.path, 'sock'))).toBe(false);
        expect(fs.readFileSync(path.join(sandbox.path, 'run/keep.txt'), 'utf8')).toBe('k\n');
        expect((await manager.changes(sandbox.id)).changes).toEqual([]);
      }
    } finally {
      server.close();
    }
  });

  it('none uses the original in place', async () => {
    const { manager, plan } = newManager();
    const original = plainDir();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'none' });
    expect(sandbox).toMatchObject({ strategy: 'none', path: original, status: 'ready' });
    expect((await manager.changes(sandbox.id)).changes).toEqual([]);
  });
});

describe('git_worktree', () => {
  function dirtyRepo(): string {
    const repo = gitRepo({ 'tracked.txt': 'one\n', 'staged.txt': 's1\n', 'gone.txt': 'bye\n', '.gitignore': '.env\nbuild/\n' });
    writeFiles(repo, { 'tracked.txt': 'one edited\n', 'staged.txt': 's2\n', 'new.txt': 'untracked\n', '.env': 'SECRET=1\n', 'build/out.o': 'obj' });
    git(repo, 'add', 'staged.txt');
    fs.rmSync(path.join(repo, 'gone.txt'));
    writeFiles(repo, { 'stashed.txt': 'x\n' });
    git(repo, 'stash', 'push', '-q', '--include-untracked', '--', 'stashed.txt');
    return repo;
  }

  it('starts from the working state (tracked, staged, untracked) and leaves ignored files out, reported', async () => {
    const { manager, plan } = newManager();
    const repo = dirtyRepo();
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', resourceName: 'local/app', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox).toMatchObject({ strategy: 'git_worktree', fallbackReason: null, status: 'ready' });
    const read = (rel: string) => fs.readFileSync(path.join(sandbox.path, rel), 'utf8');
    expect(read('tracked.txt')).toBe('one edited\n');
    expect(read('staged.txt')).toBe('s2\n');
    expect(read('new.txt')).toBe('untracked\n');
    expect(exists(path.join(sandbox.path, 'gone.txt'))).toBe(false);
    expect(exists(path.join(sandbox.path, '.env'))).toBe(false);
    expect(sandbox.ignoredFiles.sort()).toEqual(['.env', 'build/']);
    expect(sandbox.ignoredCount).toBe(2);
    expect(git(repo, 'rev-parse', sandbox.baseRef as string).trim()).toBe(sandbox.baseCommit);
    expect(sandbox.baseRef).toMatch(/^refs\/bindery\//);
    expect(git(repo, 'worktree', 'list', '--porcelain')).toMatch(/locked/);
    expect((await manager.changes(sandbox.id)).changes).toEqual([]);
    // The checkout started at HEAD before the status was in, then moved to the snapshot: nothing of HEAD is left over.
    expect(git(sandbox.path, 'rev-parse', 'HEAD').trim()).toBe(sandbox.baseCommit);
    expect(git(sandbox.path, 'status', '--porcelain')).toBe('');
  });

  it('when the status fails after the rev-parse passed (a damaged index), removes the checkout it had started and copies instead', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n' });
    fs.writeFileSync(path.join(repo, '.git', 'index'), 'not an index');
    const before = gitFingerprint(repo);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox.strategy).toBe('copy_on_write');
    expect(sandbox.fallbackReason).toMatch(/not a usable git work tree.*index.*copied instead/s);
    expect(gitFingerprint(repo)).toEqual(before);
    expect(fs.readFileSync(path.join(sandbox.path, 'sub/b.txt'), 'utf8')).toBe('b\n');
  });

  it('leaves the user repository byte-identical (refs, index, HEAD, config, stash) after provisioning and after discard', async () => {
    const { manager, plan, store } = newManager();
    const repo = dirtyRepo();
    const before = gitFingerprint(repo);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(gitFingerprint(repo, { skipBinderyRefs: true })).toEqual(gitFingerprint(repo, { skipBinderyRefs: true }));
    const { worktrees: _w, ...withoutWorktrees } = before;
    expect(gitFingerprint(repo, { skipBinderyRefs: true })).toEqual(withoutWorktrees);
    expect(git(repo, 'status', '--porcelain')).toContain('new.txt');
    writeFiles(sandbox.path, { 'tracked.txt': 'changed by the tool\n' });
    const outcome = await manager.discard(sandbox.id, { yes: true });
    expect(outcome).toMatchObject({ kind: 'discarded' });
    expect(gitFingerprint(repo)).toEqual(before);
    expect(exists(sandbox.path)).toBe(false);
    expect(store.getSandbox(sandbox.id)?.status).toBe('discarded');
  });

  it('when cancelled during the checkout, leaves nothing behind in the sandboxes or the repository', async () => {
    const { manager, plan } = newManager();
    const repo = gitRepo(Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`d${i % 9}/f${i}.txt`, `line ${i}\n`])));
    writeFiles(repo, { 'dirty.txt': 'uncommitted\n' });
    const before = gitFingerprint(repo);
    const controller = new AbortController();
    const planId = plan();
    const provisioning = manager.getOrCreateSandbox({
      planId,
      resourceId: 'R1',
      originalPath: repo,
      sandboxStrategy: 'git_worktree',
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'checkout') controller.abort();
      },
    });
    await expect(provisioning).rejects.toBeInstanceOf(CancelledError);
    expect(gitFingerprint(repo)).toEqual(before);
    expect(manager.planSandboxes(planId)).toEqual([]);
    expect(fs.existsSync(path.join(manager.layout.root, planId))).toBe(false);
  });

  it('works in a repository without commits', async () => {
    const { manager, plan } = newManager();
    const repo = tempDir('bindery-empty-repo-');
    git(repo, 'init', '-q');
    writeFiles(repo, { 'first.txt': 'hello\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: repo, sandboxStrategy: 'git_worktree' });
    expect(sandbox.strategy).toBe('git_worktree');
    expect(fs.readFileSync(path.join(sandbox.path, 'first.txt'), 'utf8')).toBe('hello\n');
  });

  it('falls back to copy_on_write with the reason when the folder is not a usable work tree', async () => {
    const { manager, plan } = newManager();
    const notGit = tempDir('bindery-plain-');
    writeFiles(notGit, { 'x.txt': 'x' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: notGit, sandboxStrategy: 'git_worktree' });
    expect(sandbox.strategy).toBe('copy_on_write');
    expect(sandbox.fallbackReason).toMatch(/not a usable git work tree.*copied instead/);
    const repo = gitRepo({ 'sub/inner.txt': 'i' });
    const inner = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R2', originalPath: path.join(repo, 'sub'), sandboxStrategy: 'git_worktree' });
    expect(inner.fallbackReason).toMatch(/not its root/);
    expect(fs.readFileSync(path.join(inner.path, 'inner.txt'), 'utf8')).toBe('i');
  });
});
