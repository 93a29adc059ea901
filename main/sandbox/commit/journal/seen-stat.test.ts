import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRacySeen, readStamp, stillAsSeen } from './entry-state.ts';
import { readJournal } from './journal-file.ts';
import { applyTransaction, type SeenStat, type TransactionOp } from './index.ts';
import { readTree, sha, workspace, writeTree } from './testing/test-support.ts';

/**
 * The stat of `file` as a caller that hashed it `msAfterChange` ms after its last change would
 * pass it. Claiming a later hashing time stands in for a file that is long unchanged.
 */
function seenAfter(file: string, msAfterChange: number): SeenStat {
  const stat = fs.lstatSync(file);
  return { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, hashedAtMs: Math.max(stat.ctimeMs, stat.mtimeMs) + msAfterChange };
}

const SETTLED = 5000;
const RACY = 1000;
const anHourAgo = new Date(Date.now() - 3_600_000);

describe('the racy rule (pure)', () => {
  const seen: SeenStat = { ino: 7, size: 4, mtimeMs: 1_000_000, ctimeMs: 1_000_000, hashedAtMs: 1_003_000 };

  it('trusts a stat whose last change (mtime or ctime) came at least 3 s before the hashing', () => {
    expect(isRacySeen(seen)).toBe(false);
    expect(isRacySeen({ ...seen, hashedAtMs: 1_002_999 })).toBe(true);
    expect(isRacySeen({ ...seen, ctimeMs: 1_000_001 })).toBe(true);
    expect(isRacySeen({ ...seen, mtimeMs: 1_000_001 })).toBe(true);
    expect(isRacySeen({ ...seen, mtimeMs: 5 })).toBe(false);
  });

  it('matches a file only when ino, size, mtime and ctime are all the same', () => {
    const { root, file } = fileIn('aaaa');
    const stamp = readStamp(file)!;
    const settled = seenAfter(file, SETTLED);
    expect(stillAsSeen(stamp, settled)).toBe(true);
    expect(stillAsSeen(stamp, seenAfter(file, RACY))).toBe(false);
    for (const field of ['ino', 'size', 'mtimeMs', 'ctimeMs'] as const) {
      expect(stillAsSeen(stamp, { ...settled, [field]: settled[field] + 1 }), field).toBe(false);
    }
    fs.rmSync(root, { recursive: true });
  });
});

function fileIn(content: string): { root: string; file: string } {
  const { target } = workspace();
  const file = path.join(target, 'f');
  fs.writeFileSync(file, content);
  return { root: target, file };
}

describe('applyTransaction with the stats the caller saw', () => {
  it("trusts the caller's hash of an original whose stat is unchanged and settled, without reading it", async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'a.txt': 'old a' });
    writeTree(sandbox, { 'a.txt': 'new a' });
    // A hash that is not the content's: only a commit that trusts the stat accepts it.
    const claimed = sha('what the caller hashed');
    const ops: TransactionOp[] = [
      { relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'file', sha256: claimed, seen: seenAfter(path.join(target, 'a.txt'), SETTLED) } },
    ];
    const result = await applyTransaction({ journalDir, targetRoot: target, ops });
    expect(result.kind).toBe('applied');
    if (result.kind !== 'applied') return;
    expect((await readJournal(journalDir, result.transactionId)).ops[0]!.old).toMatchObject({ kind: 'file', sha256: claimed });
  });

  it('hashes the original again when its last change was within the racy window of the hashing', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'a.txt': 'old a' });
    writeTree(sandbox, { 'a.txt': 'new a' });
    // As if the file changed right after the caller hashed it, in the same timestamp tick.
    const ops: TransactionOp[] = [
      { relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'file', sha256: sha('older a'), seen: seenAfter(path.join(target, 'a.txt'), RACY) } },
    ];
    const result = await applyTransaction({ journalDir, targetRoot: target, ops });
    expect(result).toMatchObject({ kind: 'drifted', paths: [{ relPath: 'a.txt', reason: expect.stringMatching(/changed meanwhile/) }] });
    expect(readTree(target)).toEqual({ 'a.txt': 'old a' });
  });

  it('catches a same-size edit that put the old mtime back (ctime moved)', async () => {
    const { sandbox, target, journalDir } = workspace();
    const file = path.join(target, 'a.txt');
    writeTree(target, { 'a.txt': 'aaaa' });
    writeTree(sandbox, { 'a.txt': 'new!' });
    fs.utimesSync(file, anHourAgo, anHourAgo);
    const seen = seenAfter(file, SETTLED);
    fs.writeFileSync(file, 'AAAA');
    fs.utimesSync(file, anHourAgo, anHourAgo);
    const ops: TransactionOp[] = [{ relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'file', sha256: sha('aaaa'), seen } }];
    expect(await applyTransaction({ journalDir, targetRoot: target, ops })).toMatchObject({ kind: 'drifted', paths: [{ relPath: 'a.txt' }] });
    expect(readTree(target)).toEqual({ 'a.txt': 'AAAA' });
  });

  it('hashes again, and commits, an original whose ctime alone moved (a chmod to the same mode, a hard link) at any point', async () => {
    const { sandbox, target, journalDir } = workspace();
    const file = path.join(target, 'a.txt');
    const links = fs.mkdtempSync(path.join(path.dirname(target), 'links-'));
    writeTree(target, { 'a.txt': 'aaaa' });
    writeTree(sandbox, { 'a.txt': 'new!' });
    fs.utimesSync(file, anHourAgo, anHourAgo);
    let n = 0;
    const touch = () => {
      fs.chmodSync(file, fs.statSync(file).mode & 0o7777);
      fs.linkSync(file, path.join(links, `l${n++}`));
    };
    for (const point of ['checked', 'backed_up', 'before_replace'] as const) {
      fs.writeFileSync(file, 'aaaa');
      fs.utimesSync(file, anHourAgo, anHourAgo);
      const seen = seenAfter(file, SETTLED);
      touch();
      const ops: TransactionOp[] = [{ relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'file', sha256: sha('aaaa'), seen } }];
      const hooks = { at: (at: string) => void (at === point && touch()) };
      expect(await applyTransaction({ journalDir, targetRoot: target, ops, hooks }), point).toMatchObject({ kind: 'applied' });
      expect(readTree(target), point).toEqual({ 'a.txt': 'new!' });
    }
  });

  it('refuses an original edited between the check and the write, keeping the edit', async () => {
    const { sandbox, target, journalDir } = workspace();
    const file = path.join(target, 'a.txt');
    writeTree(target, { 'a.txt': 'aaaa', 'b.txt': 'bbbb' });
    writeTree(sandbox, { 'a.txt': 'new!', 'b.txt': 'new?' });
    fs.utimesSync(file, anHourAgo, anHourAgo);
    const ops: TransactionOp[] = ['a.txt', 'b.txt'].map((relPath) => ({
      relPath,
      kind: 'write',
      sourcePath: path.join(sandbox, relPath),
      expect: { kind: 'file', sha256: sha(relPath === 'a.txt' ? 'aaaa' : 'bbbb'), seen: seenAfter(path.join(target, relPath), SETTLED) },
    }));
    for (const point of ['checked', 'before_replace'] as const) {
      const hooks = {
        at(at: string, relPath?: string) {
          if (at !== point || (relPath !== undefined && relPath !== 'a.txt')) return;
          fs.writeFileSync(file, 'AAAA');
          fs.utimesSync(file, anHourAgo, anHourAgo);
        },
      };
      fs.writeFileSync(file, 'aaaa');
      fs.utimesSync(file, anHourAgo, anHourAgo);
      ops[0]!.expect = { kind: 'file', sha256: sha('aaaa'), seen: seenAfter(file, SETTLED) };
      const result = await applyTransaction({ journalDir, targetRoot: target, ops, hooks, concurrency: 1 });
      expect(result, point).toMatchObject({ kind: 'drifted', paths: [{ relPath: 'a.txt' }] });
      expect(readTree(target), point).toEqual({ 'a.txt': 'AAAA', 'b.txt': 'bbbb' });
    }
  });

  it("records the caller's hash of a settled source, and refuses a source that changed from it", async () => {
    const { sandbox, target, journalDir } = workspace();
    // Larger than the copies made in memory, so the staged copy would otherwise be read again.
    const big = 'x'.repeat(64 * 1024);
    writeTree(sandbox, { 'a.bin': big, 'b.bin': big });
    const claimed = sha('what the caller hashed');
    const opOf = (name: string): TransactionOp => ({
      relPath: name,
      kind: 'write',
      sourcePath: path.join(sandbox, name),
      sourceContent: { sha256: claimed, seen: seenAfter(path.join(sandbox, name), SETTLED) },
      expect: { kind: 'absent' },
    });
    const result = await applyTransaction({ journalDir, targetRoot: target, ops: [opOf('a.bin')] });
    expect(result.kind).toBe('applied');
    if (result.kind !== 'applied') return;
    const [a] = (await readJournal(journalDir, result.transactionId)).ops;
    expect(a!.next).toMatchObject({ kind: 'file', sha256: claimed });
    // Changed after the check: its copy's own hash is not the one reviewed, so nothing is written.
    const hooks = { at: (point: string) => void (point === 'checked' && fs.appendFileSync(path.join(sandbox, 'b.bin'), 'more')) };
    await expect(applyTransaction({ journalDir, targetRoot: target, ops: [opOf('b.bin')], hooks })).rejects.toThrow(
      /^b\.bin changed in the sandbox while committing: review it again, then commit\./,
    );
    expect(fs.existsSync(path.join(target, 'b.bin'))).toBe(false);
  });

  it('refuses a seen stat that is not numbers', async () => {
    const { target, journalDir } = workspace();
    const seen = { ino: 1, size: 1, mtimeMs: 1, ctimeMs: Number.NaN, hashedAtMs: 1 };
    const ops: TransactionOp[] = [{ relPath: 'a', kind: 'delete', expect: { kind: 'file', sha256: sha('a'), seen } }];
    await expect(applyTransaction({ journalDir, targetRoot: target, ops })).rejects.toThrow(/seen stat without numeric/);
  });
});
