/**
 * A sandbox file changed after the commit was planned (after the person reviewed it) and before the
 * journal copied it: the commit must write nothing rather than the unreviewed content. The op's
 * `sourceContent` is the reviewed hash; the staged copy's own hash must equal it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyTransaction, listTransactions, type FaultPoint, type KnownContent, type TransactionOp } from './index.ts';
import { readTree, sha, tempDir, tempFilesIn, workspace, writeTree } from './testing/test-support.ts';

/** The reviewed content of `file` as change detection gives it: its hash and, with `withSeen`, the stat that proves it. */
function reviewed(file: string, withSeen: boolean): KnownContent {
  const sha256 = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  if (!withSeen) return { sha256 };
  const stat = fs.statSync(file);
  // Hashed well after its last change, so the stat is trusted (not racy).
  return { sha256, seen: { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, hashedAtMs: Date.now() + 10_000 } };
}

/** A commit of `a.txt` (`newA`, reviewed) and `b.txt` over their old versions, from `dirs.sandbox` to `dirs.target`. */
function setUp(dirs: { sandbox: string; target: string }, withSeen: boolean, newA: string | Buffer = 'new a'): TransactionOp[] {
  writeTree(dirs.target, { 'a.txt': 'old a', 'b.txt': 'old b' });
  writeTree(dirs.sandbox, { 'b.txt': 'new b' });
  const a = path.join(dirs.sandbox, 'a.txt');
  const b = path.join(dirs.sandbox, 'b.txt');
  fs.writeFileSync(a, newA);
  return [
    { relPath: 'a.txt', kind: 'write', sourcePath: a, sourceContent: reviewed(a, withSeen), expect: { kind: 'file', sha256: sha('old a') } },
    { relPath: 'b.txt', kind: 'write', sourcePath: b, sourceContent: reviewed(b, withSeen), expect: { kind: 'file', sha256: sha('old b') } },
  ];
}

/** Hooks that run `change` once, at `point`. */
function once(point: FaultPoint, change: () => void) {
  let done = false;
  return {
    at(at: FaultPoint) {
      if (at !== point || done) return;
      done = true;
      change();
    },
  };
}

async function expectRefused(run: Promise<unknown>, dirs: { target: string; journalDir: string }): Promise<void> {
  await expect(run).rejects.toMatchObject({
    code: 'conflict',
    message: expect.stringMatching(/^a\.txt changed in the sandbox while committing: review it again, then commit\. Nothing was written\.$/),
  });
  expect(readTree(dirs.target)).toEqual({ 'a.txt': 'old a', 'b.txt': 'old b' });
  expect(tempFilesIn(dirs.target)).toEqual([]);
  expect((await listTransactions(dirs.journalDir)).filter((t) => t.state !== 'rolled_back')).toEqual([]);
}

describe('a sandbox file changed during the commit', () => {
  for (const withSeen of [false, true]) {
    it(`is refused, nothing written, when it changes after the check (${withSeen ? 'reviewed stat given' : 'hash only'})`, async () => {
      const dirs = workspace();
      const ops = setUp(dirs, withSeen);
      const hooks = once('prepared', () => fs.writeFileSync(path.join(dirs.sandbox, 'a.txt'), 'UNREVIEWED'));
      await expectRefused(applyTransaction({ journalDir: dirs.journalDir, targetRoot: dirs.target, ops, hooks }), dirs);
    });
  }

  it('is refused when it changed between planning and the check, same size and mtime kept', async () => {
    const dirs = workspace();
    const ops = setUp(dirs, true);
    const a = path.join(dirs.sandbox, 'a.txt');
    const { atime, mtime } = fs.statSync(a);
    fs.writeFileSync(a, 'NEW A');
    fs.utimesSync(a, atime, mtime);
    await expectRefused(applyTransaction({ journalDir: dirs.journalDir, targetRoot: dirs.target, ops }), dirs);
  });

  it('is refused when a large file (copied in chunks) changes after the check', async () => {
    const dirs = workspace();
    const large = Buffer.alloc(600 * 1024, 5);
    const ops = setUp(dirs, false, large);
    const hooks = once('prepared', () => fs.writeFileSync(path.join(dirs.sandbox, 'a.txt'), Buffer.alloc(600 * 1024, 6)));
    await expectRefused(applyTransaction({ journalDir: dirs.journalDir, targetRoot: dirs.target, ops, hooks }), dirs);
  });

  it('is refused when the reviewed file became a symlink', async () => {
    const dirs = workspace();
    const ops = setUp(dirs, false);
    fs.rmSync(path.join(dirs.sandbox, 'a.txt'));
    fs.symlinkSync('b.txt', path.join(dirs.sandbox, 'a.txt'));
    await expectRefused(applyTransaction({ journalDir: dirs.journalDir, targetRoot: dirs.target, ops }), dirs);
  });

  it('is committed when it is unchanged', async () => {
    for (const withSeen of [false, true]) {
      const dirs = workspace();
      const result = await applyTransaction({ journalDir: dirs.journalDir, targetRoot: dirs.target, ops: setUp(dirs, withSeen) });
      expect(result.kind).toBe('applied');
      expect(readTree(dirs.target)).toEqual({ 'a.txt': 'new a', 'b.txt': 'new b' });
    }
  });
});

/**
 * A folder on a filesystem that clones (see durable-copy.test.ts): a staged clone is checked as a
 * copy is. Without it this test skips.
 */
const REFLINK_DIR = process.env.BINDERY_TEST_REFLINK_DIR;

describe.skipIf(!REFLINK_DIR)('a sandbox file changed during a commit that clones', () => {
  it('is refused, nothing written, small and large alike', async () => {
    for (const size of [10, 600 * 1024]) {
      const root = fs.mkdtempSync(path.join(REFLINK_DIR!, 'changed-'));
      try {
        const dirs = { sandbox: path.join(root, 'sandbox'), target: path.join(root, 'target'), journalDir: path.join(tempDir(), 'journal') };
        fs.mkdirSync(dirs.sandbox);
        fs.mkdirSync(dirs.target);
        const ops = setUp(dirs, false, Buffer.alloc(size, 5));
        const hooks = once('prepared', () => fs.writeFileSync(path.join(dirs.sandbox, 'a.txt'), Buffer.alloc(size, 6)));
        await expectRefused(applyTransaction({ journalDir: dirs.journalDir, targetRoot: dirs.target, ops, hooks }), dirs);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    }
  });
});
