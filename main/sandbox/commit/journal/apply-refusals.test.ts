/** applyTransaction refusing a commit, changing nothing: drift (at check, backup or rename time) and unsafe paths. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafePathError, ValidationError } from '../../../../shared/errors.ts';
import { applyTransaction, listTransactions, recoverTransactions, type TransactionOp } from './index.ts';
import { asOrdinaryUser, readTree, sha, tempDir, tempFilesIn, workspace, writeTree } from './testing/test-support.ts';

describe('applyTransaction', () => {
  it('reports drift at check time and changes nothing', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'a.txt': 'edited by someone', 'b.txt': 'appeared', 'dir/inner': 'x', 'c.txt': 'fine' });
    writeTree(sandbox, { n: 'new' });
    const source = path.join(sandbox, 'n');
    const before = readTree(target);
    const result = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops: [
        { relPath: 'a.txt', kind: 'write', sourcePath: source, expect: { kind: 'file', sha256: sha('original') } },
        { relPath: 'b.txt', kind: 'write', sourcePath: source, expect: { kind: 'absent' } },
        { relPath: 'dir', kind: 'write', sourcePath: source, expect: { kind: 'any' } },
        { relPath: 'c.txt', kind: 'write', sourcePath: source, expect: { kind: 'file', sha256: sha('fine') } },
        { relPath: 'c.txt/under-a-file', kind: 'write', sourcePath: source, expect: { kind: 'absent' } },
      ],
    });
    expect(result.kind).toBe('drifted');
    if (result.kind !== 'drifted') return;
    expect(result.paths.map((p) => p.relPath)).toEqual(['a.txt', 'b.txt', 'dir', 'c.txt/under-a-file']);
    expect(result.paths[0]!.reason).toMatch(/changed meanwhile/);
    expect(result.paths[2]!.reason).toMatch(/directory is in the way/);
    expect(readTree(target)).toEqual(before);
    // The journal, made while the targets were looked at, is gone with nothing left of it.
    expect(fs.readdirSync(journalDir)).toEqual([]);
  });

  it('has the journal, naming every op, on disk before the targets are compared and backed up', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'a.txt': 'old a' });
    writeTree(sandbox, { 'a.txt': 'new a', b: 'new b' });
    const ops: TransactionOp[] = [
      { relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'file', sha256: sha('old a') } },
      { relPath: 'sub/b', kind: 'write', sourcePath: path.join(sandbox, 'b'), expect: { kind: 'absent' } },
    ];
    let atCheck: unknown;
    const hooks = {
      async at(point: string) {
        if (point === 'checked') atCheck = await listTransactions(journalDir);
      },
    };
    expect((await applyTransaction({ journalDir, targetRoot: target, ops, hooks })).kind).toBe('applied');
    expect(atCheck).toMatchObject([{ state: 'prepared', written: ['a.txt', 'sub/b'] }]);
    expect(readTree(target)).toMatchObject({ 'a.txt': 'new a', 'sub/b': 'new b' });
  });

  it('detects a change between the check and the rename, undoes what it did and keeps the edit', async () => {
    const { sandbox, target, journalDir } = workspace();
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.txt`, `old ${i}`]));
    writeTree(target, files);
    writeTree(sandbox, Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.txt`, `new ${i}`])));
    writeTree(sandbox, { 'fresh.txt': 'fresh' });
    const ops: TransactionOp[] = Object.keys(files).map((relPath) => ({
      relPath,
      kind: 'write',
      sourcePath: path.join(sandbox, relPath),
      expect: { kind: 'file', sha256: sha(files[relPath]!) },
    }));
    ops.push({ relPath: 'new dir/fresh.txt', kind: 'write', sourcePath: path.join(sandbox, 'fresh.txt'), expect: { kind: 'absent' } });
    let replaced = 0;
    const result = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops,
      concurrency: 4,
      hooks: {
        at(point, relPath) {
          if (point === 'replaced') replaced++;
          if (point === 'before_replace' && relPath === 'f20.txt') fs.writeFileSync(path.join(target, relPath), 'edited meanwhile');
        },
      },
    });
    expect(replaced).toBeGreaterThan(0);
    expect(result).toEqual({ kind: 'drifted', paths: [{ relPath: 'f20.txt', reason: expect.stringMatching(/changed while the commit was running/) }] });
    expect(readTree(target)).toEqual({ ...files, 'f20.txt': 'edited meanwhile' });
    expect(tempFilesIn(target)).toEqual([]);
    const [summary] = await listTransactions(journalDir);
    expect(summary!.state).toBe('rolled_back');
  });

  it('detects a same-size in-place edit of a long-unchanged file just before its rename', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'old.txt': 'aaaa', 'other.txt': 'bbbb' });
    writeTree(sandbox, { 'old.txt': 'new!', 'other.txt': 'new?' });
    const anHourAgo = new Date(Date.now() - 3_600_000);
    for (const name of ['old.txt', 'other.txt']) fs.utimesSync(path.join(target, name), anHourAgo, anHourAgo);
    const ops: TransactionOp[] = ['other.txt', 'old.txt'].map((relPath) => ({
      relPath,
      kind: 'write',
      sourcePath: path.join(sandbox, relPath),
      expect: { kind: 'file', sha256: sha(relPath === 'old.txt' ? 'aaaa' : 'bbbb') },
    }));
    const hooks = {
      at(point: string, relPath?: string) {
        if (point === 'before_replace' && relPath === 'old.txt') fs.writeFileSync(path.join(target, 'old.txt'), 'AAAA');
      },
    };
    const result = await applyTransaction({ journalDir, targetRoot: target, ops, hooks, concurrency: 1 });
    expect(result).toMatchObject({ kind: 'drifted', paths: [{ relPath: 'old.txt' }] });
    expect(readTree(target)).toEqual({ 'old.txt': 'AAAA', 'other.txt': 'bbbb' });
  });

  /**
   * A commit of old.txt (long unchanged) and of a new sub/b, whose folder it makes; someone edits
   * old.txt in place once it is checked, and does `alsoAtCheck`.
   */
  function editedAfterCheck(alsoAtCheck: (journalDir: string) => void = () => {}) {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'old.txt': 'aaaa' });
    writeTree(sandbox, { 'old.txt': 'new!', b: 'b' });
    const anHourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(path.join(target, 'old.txt'), anHourAgo, anHourAgo);
    const ops: TransactionOp[] = [
      { relPath: 'old.txt', kind: 'write', sourcePath: path.join(sandbox, 'old.txt'), expect: { kind: 'file', sha256: sha('aaaa') } },
      { relPath: 'sub/b', kind: 'write', sourcePath: path.join(sandbox, 'b'), expect: { kind: 'absent' } },
    ];
    const hooks = {
      at(point: string) {
        if (point !== 'checked') return;
        fs.writeFileSync(path.join(target, 'old.txt'), 'AAAA');
        alsoAtCheck(journalDir);
      },
    };
    return { target, journalDir, input: { journalDir, targetRoot: target, ops, hooks } };
  }

  it('refuses a file edited in place between the check and its backup, before staging anything', async () => {
    const { target, journalDir, input } = editedAfterCheck();
    const result = await applyTransaction(input);
    expect(result).toMatchObject({ kind: 'drifted', paths: [{ relPath: 'old.txt', reason: expect.stringMatching(/changed while the commit was starting/) }] });
    expect(readTree(target)).toEqual({ 'old.txt': 'AAAA' });
    expect(tempFilesIn(target)).toEqual([]);
    expect(fs.readdirSync(journalDir)).toEqual([]);
  });

  it('reports drift found at backup time even when its journal cannot be removed', async () => {
    // The journal's folder can no longer be renamed away.
    const { target, journalDir, input } = editedAfterCheck((dir) => fs.chmodSync(dir, 0o555));
    const result = await asOrdinaryUser(path.dirname(target), () => applyTransaction(input));
    fs.chmodSync(journalDir, 0o755);
    expect(result).toMatchObject({ kind: 'drifted', paths: [{ relPath: 'old.txt' }] });
    // Ended as rolled back instead, which recovery leaves alone: a prepared journal would have it
    // remove the empty folder the commit meant to make, which someone has made since.
    expect((await listTransactions(journalDir)).map((t) => t.state)).toEqual(['rolled_back']);
    fs.mkdirSync(path.join(target, 'sub'));
    expect(await recoverTransactions(journalDir)).toEqual([]);
    expect(readTree(target)).toEqual({ 'old.txt': 'AAAA', sub: '<dir>' });
  });

  it('reports a file removed between the check and its backup as drift', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'old.txt': 'aaaa' });
    writeTree(sandbox, { 'old.txt': 'new!' });
    const ops: TransactionOp[] = [{ relPath: 'old.txt', kind: 'write', sourcePath: path.join(sandbox, 'old.txt'), expect: { kind: 'file', sha256: sha('aaaa') } }];
    const hooks = { at: (point: string) => void (point === 'checked' && fs.rmSync(path.join(target, 'old.txt'))) };
    const result = await applyTransaction({ journalDir, targetRoot: target, ops, hooks });
    expect(result).toMatchObject({ kind: 'drifted', paths: [{ relPath: 'old.txt', reason: expect.stringMatching(/removed or moved/) }] });
    expect(readTree(target)).toEqual({});
    expect(fs.readdirSync(journalDir)).toEqual([]);
  });

  it('fails with a clear error, having changed nothing, when a backup cannot be made', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'old.txt': 'aaaa' });
    writeTree(sandbox, { 'old.txt': 'new!', b: 'b' });
    const ops: TransactionOp[] = [
      { relPath: 'old.txt', kind: 'write', sourcePath: path.join(sandbox, 'old.txt'), expect: { kind: 'file', sha256: sha('aaaa') } },
      { relPath: 'sub/b', kind: 'write', sourcePath: path.join(sandbox, 'b'), expect: { kind: 'absent' } },
    ];
    const backupDir = () => path.join(journalDir, fs.readdirSync(journalDir)[0]!, 'backup');
    const hooks = { at: (point: string) => void (point === 'checked' && fs.chmodSync(backupDir(), 0o555)) };
    const failing = asOrdinaryUser(path.dirname(target), () => applyTransaction({ journalDir, targetRoot: target, ops, hooks }));
    await expect(failing).rejects.toMatchObject({ code: 'io_error', message: expect.stringMatching(/failed before changing anything \(EACCES/) });
    expect(readTree(target)).toEqual({ 'old.txt': 'aaaa' });
    expect(fs.readdirSync(journalDir)).toEqual([]);
  });

  it('refuses absolute paths, ".." and symlinked parents that leave the target, before changing anything', async () => {
    const { sandbox, target, journalDir } = workspace();
    const outside = tempDir();
    writeTree(sandbox, { n: 'new' });
    writeTree(target, { 'ok.txt': 'old' });
    fs.symlinkSync(outside, path.join(target, 'escape'));
    const source = path.join(sandbox, 'n');
    for (const relPath of [path.join(outside, 'x'), '../x', 'a/../../x', 'escape/x', 'escape/sub/x', 'a//b', '']) {
      const ops: TransactionOp[] = [
        { relPath: 'ok.txt', kind: 'write', sourcePath: source, expect: { kind: 'any' } },
        { relPath, kind: 'write', sourcePath: source, expect: { kind: 'absent' } },
      ];
      await expect(applyTransaction({ journalDir, targetRoot: target, ops }), relPath).rejects.toBeInstanceOf(UnsafePathError);
    }
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(readTree(target)).toEqual({ 'ok.txt': 'old', escape: `-> ${outside}` });
  });

  it('follows a symlinked parent that stays inside the target', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(sandbox, { n: 'new' });
    writeTree(target, { 'real/old.txt': 'x', alias: { link: 'real' } });
    const ops: TransactionOp[] = [{ relPath: 'alias/n.txt', kind: 'write', sourcePath: path.join(sandbox, 'n'), expect: { kind: 'absent' } }];
    expect((await applyTransaction({ journalDir, targetRoot: target, ops })).kind).toBe('applied');
    expect(fs.readFileSync(path.join(target, 'real/n.txt'), 'utf8')).toBe('new');
  });

  it('does not write through a folder swapped for an outside symlink after the check', async () => {
    const { sandbox, target, journalDir } = workspace();
    const outside = tempDir();
    writeTree(target, { 'sub/a.txt': 'old a', 'b.txt': 'old b' });
    writeTree(sandbox, { a: 'new a', b: 'new b' });
    const ops: TransactionOp[] = [
      { relPath: 'b.txt', kind: 'write', sourcePath: path.join(sandbox, 'b'), expect: { kind: 'any' } },
      { relPath: 'sub/a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a'), expect: { kind: 'any' } },
    ];
    const hooks = {
      at(point: string, relPath?: string) {
        if (point !== 'before_replace' || relPath !== 'sub/a.txt') return;
        fs.renameSync(path.join(target, 'sub'), path.join(target, 'sub-moved'));
        fs.symlinkSync(outside, path.join(target, 'sub'));
        fs.writeFileSync(path.join(outside, 'a.txt'), 'old a');
      },
    };
    const result = await applyTransaction({ journalDir, targetRoot: target, ops, hooks, concurrency: 1 });
    expect(result).toEqual({ kind: 'drifted', paths: [{ relPath: 'sub/a.txt', reason: expect.stringMatching(/replaced \(by a symlink or another folder\)/) }] });
    expect(fs.readFileSync(path.join(outside, 'a.txt'), 'utf8')).toBe('old a');
    expect(fs.readdirSync(outside)).toEqual(['a.txt']);
    // The staged file moved away with its folder, where Bindery no longer looks; nothing else changed.
    const tree = readTree(target);
    expect(tempFilesIn(target)).toEqual([expect.stringMatching(/^sub-moved\/\.bindery-tmp-/)]);
    for (const temp of tempFilesIn(target)) delete tree[temp];
    expect(tree).toEqual({ 'b.txt': 'old b', sub: `-> ${outside}`, 'sub-moved': '<dir>', 'sub-moved/a.txt': 'old a' });
  });

  it('refuses a path that would be both a file and the folder of another', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(sandbox, { n: 'new' });
    const source = path.join(sandbox, 'n');
    const ops: TransactionOp[] = [
      { relPath: 'x', kind: 'write', sourcePath: source, expect: { kind: 'absent' } },
      { relPath: 'x/y', kind: 'write', sourcePath: source, expect: { kind: 'absent' } },
    ];
    await expect(applyTransaction({ journalDir, targetRoot: target, ops })).rejects.toThrow(/file and also the folder/);
    expect(readTree(target)).toEqual({});
  });

  it('refuses two ops on the same file, ops without a usable source, and a journal inside the target', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(sandbox, { n: 'new' });
    writeTree(target, { 'real/x': 'x', alias: { link: 'real' } });
    const source = path.join(sandbox, 'n');
    const twice: TransactionOp[] = [
      { relPath: 'real/y', kind: 'write', sourcePath: source, expect: { kind: 'any' } },
      { relPath: 'alias/y', kind: 'delete', expect: { kind: 'any' } },
    ];
    await expect(applyTransaction({ journalDir, targetRoot: target, ops: twice })).rejects.toBeInstanceOf(ValidationError);
    const missing: TransactionOp[] = [{ relPath: 'z', kind: 'write', sourcePath: path.join(sandbox, 'nope'), expect: { kind: 'any' } }];
    await expect(applyTransaction({ journalDir, targetRoot: target, ops: missing })).rejects.toThrow(/does not exist/);
    expect(fs.readdirSync(journalDir)).toEqual([]);
    const badHash: TransactionOp[] = [{ relPath: 'z', kind: 'delete', expect: { kind: 'file', sha256: 'abc' } }];
    await expect(applyTransaction({ journalDir, targetRoot: target, ops: badHash })).rejects.toBeInstanceOf(ValidationError);
    const inside = path.join(target, '.journal');
    await expect(applyTransaction({ journalDir: inside, targetRoot: target, ops: [] })).rejects.toThrow(/inside the target/);
  });
});
