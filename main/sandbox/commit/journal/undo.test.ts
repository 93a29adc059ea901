import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ConflictError, ValidationError } from '../../../../shared/errors.ts';
import { applyTransaction, listTransactions, undoTransaction, type TransactionOp } from './index.ts';
import { readTree, sha, tempFilesIn, workspace, writeTree } from './testing/test-support.ts';

const otherDeviceUnavailable = !fs.existsSync('/dev/shm') || fs.statSync('/dev/shm').dev === fs.statSync(os.tmpdir()).dev;

async function commitSample() {
  const dirs = workspace();
  const { sandbox, target, journalDir } = dirs;
  writeTree(target, { 'a.txt': 'old a', 'gone.txt': 'bye', 'ln': { link: 'old' }, 'keep/x': 'x' });
  fs.chmodSync(path.join(target, 'a.txt'), 0o640);
  writeTree(sandbox, { 'a.txt': 'new a', b: 'new b', ln: { link: 'new' } });
  const ops: TransactionOp[] = [
    { relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), mode: 0o755, expect: { kind: 'file', sha256: sha('old a') } },
    { relPath: 'made/deeper/b', kind: 'write', sourcePath: path.join(sandbox, 'b'), expect: { kind: 'absent' } },
    { relPath: 'ln', kind: 'write', sourcePath: path.join(sandbox, 'ln'), expect: { kind: 'symlink', target: 'old' } },
    { relPath: 'gone.txt', kind: 'delete', expect: { kind: 'any' } },
  ];
  const before = readTree(target);
  const result = await applyTransaction({ journalDir, targetRoot: target, ops });
  if (result.kind !== 'applied') throw new Error('setup commit drifted');
  return { ...dirs, before, transactionId: result.transactionId };
}

/** A folder on another filesystem than the temp folder (tmpfs), where hard links cannot reach. */
function otherDevice(): string | null {
  const shm = '/dev/shm';
  if (!fs.existsSync(shm) || fs.statSync(shm).dev === fs.statSync(os.tmpdir()).dev) return null;
  const dir = fs.mkdtempSync(path.join(shm, 'bindery-journal-'));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('undoTransaction', () => {
  it('restores overwritten, deleted and retargeted files, modes included, and removes created files and folders', async () => {
    const { target, journalDir, before, transactionId } = await commitSample();
    expect(readTree(target)).not.toEqual(before);
    const result = await undoTransaction({ journalDir, targetRoot: target, transactionId });
    expect(result).toEqual({ kind: 'undone', restored: ['a.txt', 'made/deeper/b', 'ln', 'gone.txt'] });
    expect(readTree(target)).toEqual(before);
    expect(fs.statSync(path.join(target, 'a.txt')).mode & 0o7777).toBe(0o640);
    expect(tempFilesIn(target)).toEqual([]);
    expect((await listTransactions(journalDir))[0]!.state).toBe('undone');
    expect(fs.existsSync(path.join(journalDir, transactionId, 'backup'))).toBe(false);
  });

  it('refuses, changing nothing, when a file changed after the commit', async () => {
    const { target, journalDir, transactionId } = await commitSample();
    fs.writeFileSync(path.join(target, 'made/deeper/b'), 'edited after commit');
    fs.writeFileSync(path.join(target, 'gone.txt'), 'recreated');
    const after = readTree(target);
    const result = await undoTransaction({ journalDir, targetRoot: target, transactionId });
    expect(result.kind).toBe('drifted');
    if (result.kind !== 'drifted') return;
    expect(result.paths.map((p) => p.relPath).sort()).toEqual(['gone.txt', 'made/deeper/b']);
    expect(result.paths[0]!.reason).toMatch(/changed after the commit/);
    expect(readTree(target)).toEqual(after);
    expect((await listTransactions(journalDir))[0]!.state).toBe('committed');
  });

  it('refuses to undo an older commit whose files a later commit changed', async () => {
    const { sandbox, target, journalDir, transactionId } = await commitSample();
    writeTree(sandbox, { again: 'third version' });
    const later = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops: [{ relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'again'), expect: { kind: 'any' } }],
    });
    expect(later.kind).toBe('applied');
    expect((await undoTransaction({ journalDir, targetRoot: target, transactionId })).kind).toBe('drifted');
    if (later.kind !== 'applied') return;
    expect((await undoTransaction({ journalDir, targetRoot: target, transactionId: later.transactionId })).kind).toBe('undone');
    expect((await undoTransaction({ journalDir, targetRoot: target, transactionId })).kind).toBe('undone');
  });

  it.skipIf(otherDeviceUnavailable)('backs up by copy and restores when the journal is on another filesystem', async () => {
    const journalDir = otherDevice()!;
    const { sandbox, target } = workspace();
    writeTree(target, { 'a.txt': 'old a', 'gone.txt': 'bye' });
    fs.chmodSync(path.join(target, 'a.txt'), 0o640);
    writeTree(sandbox, { 'a.txt': 'new a' });
    const before = readTree(target);
    const ops: TransactionOp[] = [
      { relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'file', sha256: sha('old a') } },
      { relPath: 'gone.txt', kind: 'delete', expect: { kind: 'file', sha256: sha('bye') } },
    ];
    const result = await applyTransaction({ journalDir, targetRoot: target, ops });
    if (result.kind !== 'applied') throw new Error('commit drifted');
    const backup = path.join(journalDir, result.transactionId, 'backup', '0');
    expect(fs.readFileSync(backup, 'utf8')).toBe('old a');
    expect(fs.statSync(backup).nlink).toBe(1);
    expect(readTree(target)).toEqual({ 'a.txt': 'new a' });
    expect(await undoTransaction({ journalDir, targetRoot: target, transactionId: result.transactionId })).toMatchObject({ kind: 'undone' });
    expect(readTree(target)).toEqual(before);
    expect(fs.statSync(path.join(target, 'a.txt')).mode & 0o7777).toBe(0o640);
  });

  it('refuses a second undo, an unknown id and another folder', async () => {
    const { target, journalDir, transactionId, sandbox } = await commitSample();
    await undoTransaction({ journalDir, targetRoot: target, transactionId });
    await expect(undoTransaction({ journalDir, targetRoot: target, transactionId })).rejects.toBeInstanceOf(ConflictError);
    await expect(undoTransaction({ journalDir, targetRoot: target, transactionId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' })).rejects.toThrow(/No commit journal/);
    await expect(undoTransaction({ journalDir, targetRoot: sandbox, transactionId })).rejects.toBeInstanceOf(ValidationError);
  });
});
