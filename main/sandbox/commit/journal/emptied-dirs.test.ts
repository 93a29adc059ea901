import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafePathError, ValidationError } from '../../../../shared/errors.ts';
import { applyTransaction, listTransactions, undoTransaction, type TransactionOp } from './index.ts';
import { asOrdinaryUser, readTree, sha, workspace, writeTree } from './testing/test-support.ts';

const deleteOf = (relPath: string, content: string): TransactionOp => ({ relPath, kind: 'delete', expect: { kind: 'file', sha256: sha(content) } });

describe('folders a commit empties', () => {
  it('are removed once empty, deepest first, and made again with their mode by undo', async () => {
    const { target, journalDir } = workspace();
    writeTree(target, { 'docs/old/a.md': 'a', 'docs/old/b.md': 'b', 'docs/keep.md': 'keep' });
    fs.chmodSync(path.join(target, 'docs/old'), 0o750);
    const result = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops: [deleteOf('docs/old/a.md', 'a'), deleteOf('docs/old/b.md', 'b')],
      // docs still holds keep.md, so it stays.
      removeDirs: ['docs', 'docs/old'],
    });
    expect(result.kind).toBe('applied');
    expect(readTree(target)).toEqual({ docs: '<dir>', 'docs/keep.md': 'keep' });

    const undone = await undoTransaction({ journalDir, targetRoot: target, transactionId: (result as { transactionId: string }).transactionId });
    expect(undone).toEqual({ kind: 'undone', restored: ['docs/old/a.md', 'docs/old/b.md'] });
    expect(readTree(target)).toEqual({ docs: '<dir>', 'docs/keep.md': 'keep', 'docs/old': '<dir>', 'docs/old/a.md': 'a', 'docs/old/b.md': 'b' });
    expect(fs.statSync(path.join(target, 'docs/old')).mode & 0o777).toBe(0o750);
  });

  it('keeps a folder someone put a file into while the commit ran', async () => {
    const { target, journalDir } = workspace();
    writeTree(target, { 'old/a.md': 'a' });
    const result = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops: [deleteOf('old/a.md', 'a')],
      removeDirs: ['old'],
      hooks: { at: (point) => void (point === 'synced' && fs.writeFileSync(path.join(target, 'old/new.md'), 'mine')) },
    });
    expect(result.kind).toBe('applied');
    expect(readTree(target)).toEqual({ old: '<dir>', 'old/new.md': 'mine' });
  });

  it.skipIf(process.platform === 'win32')('stay when they cannot be removed, and the commit still applies', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'ro/sub/a.md': 'a', 'top.md': 'old' });
    writeTree(sandbox, { 'top.md': 'new' });
    // A read-only parent: a.md can go from sub, but sub cannot go from ro.
    fs.chmodSync(path.join(target, 'ro'), 0o555);
    const ops = [deleteOf('ro/sub/a.md', 'a'), { relPath: 'top.md', kind: 'write', sourcePath: path.join(sandbox, 'top.md'), expect: { kind: 'file', sha256: sha('old') } } as const];
    const result = await asOrdinaryUser(path.dirname(target), () => applyTransaction({ journalDir, targetRoot: target, ops, removeDirs: ['ro/sub'] }));
    expect(result.kind).toBe('applied');
    expect(readTree(target)).toEqual({ ro: '<dir>', 'ro/sub': '<dir>', 'top.md': 'new' });
    expect((await listTransactions(journalDir))[0]).toMatchObject({ state: 'committed' });
  });

  it('undo refuses, changing nothing, while something else has the name of a folder the commit removed', async () => {
    const { target, journalDir } = workspace();
    writeTree(target, { 'gone/a.md': 'a', 'gone/deep/b.md': 'b' });
    const result = await applyTransaction({ journalDir, targetRoot: target, ops: [deleteOf('gone/a.md', 'a'), deleteOf('gone/deep/b.md', 'b')], removeDirs: ['gone/deep', 'gone'] });
    expect(readTree(target)).toEqual({});
    writeTree(target, { gone: 'a file took the name' });
    const transactionId = (result as { transactionId: string }).transactionId;
    const refused = await undoTransaction({ journalDir, targetRoot: target, transactionId });
    expect(refused).toMatchObject({ kind: 'drifted', paths: [{ relPath: 'gone', reason: expect.stringMatching(/move that aside, then undo again/) }] });
    expect(readTree(target)).toEqual({ gone: 'a file took the name' });
    fs.rmSync(path.join(target, 'gone'));
    expect(await undoTransaction({ journalDir, targetRoot: target, transactionId })).toEqual({ kind: 'undone', restored: ['gone/a.md', 'gone/deep/b.md'] });
    expect(readTree(target)).toEqual({ gone: '<dir>', 'gone/a.md': 'a', 'gone/deep': '<dir>', 'gone/deep/b.md': 'b' });
  });

  it('leaves alone a folder that is gone already or reached through a symlink', async () => {
    const { target, journalDir } = workspace();
    writeTree(target, { 'real/a.md': 'a', 'via-link': { link: 'real' } });
    const result = await applyTransaction({ journalDir, targetRoot: target, ops: [deleteOf('real/a.md', 'a')], removeDirs: ['via-link', 'never-was'] });
    expect(result.kind).toBe('applied');
    expect(readTree(target)).toEqual({ real: '<dir>', 'via-link': '-> real' });
  });

  it('refuses a folder the commit writes into, and paths outside the root', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'dir/a.md': 'a' });
    writeTree(sandbox, { 'b.md': 'b' });
    const write: TransactionOp = { relPath: 'dir/sub/b.md', kind: 'write', sourcePath: path.join(sandbox, 'b.md'), expect: { kind: 'absent' } };
    await expect(applyTransaction({ journalDir, targetRoot: target, ops: [write], removeDirs: ['dir'] })).rejects.toThrow(ValidationError);
    await expect(applyTransaction({ journalDir, targetRoot: target, ops: [deleteOf('dir/a.md', 'a')], removeDirs: ['../outside'] })).rejects.toThrow(UnsafePathError);
    await expect(applyTransaction({ journalDir, targetRoot: target, ops: [deleteOf('dir/a.md', 'a')], removeDirs: [''] })).rejects.toThrow(UnsafePathError);
    expect(readTree(target)).toEqual({ dir: '<dir>', 'dir/a.md': 'a' });
  });
});
