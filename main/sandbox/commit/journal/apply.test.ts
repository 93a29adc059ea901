import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../../../shared/errors.ts';
import { applyTransaction, listTransactions, type TransactionOp } from './index.ts';
import { asOrdinaryUser, readTree, sha, swappedAfterCheck, tempDir, tempFilesIn, workspace, writeTree } from './testing/test-support.ts';

describe('applyTransaction', () => {
  it('overwrites, creates (with parent folders) and deletes files, and keeps backups', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'a.txt': 'old a', 'gone.txt': 'bye', 'keep.txt': 'same' });
    writeTree(sandbox, { 'a.txt': 'new a', 'deep/b.txt': 'new b' });
    const result = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops: [
        { relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'file', sha256: sha('old a') } },
        { relPath: 'x/y/b.txt', kind: 'write', sourcePath: path.join(sandbox, 'deep/b.txt'), expect: { kind: 'absent' } },
        { relPath: 'gone.txt', kind: 'delete', expect: { kind: 'file', sha256: sha('bye') } },
      ],
    });
    expect(result).toMatchObject({ kind: 'applied', written: ['a.txt', 'x/y/b.txt'], deleted: ['gone.txt'] });
    expect(readTree(target)).toEqual({ 'a.txt': 'new a', 'keep.txt': 'same', x: '<dir>', 'x/y': '<dir>', 'x/y/b.txt': 'new b' });
    const [summary] = await listTransactions(journalDir);
    expect(summary).toMatchObject({ state: 'committed', written: ['a.txt', 'x/y/b.txt'], deleted: ['gone.txt'] });
    const backups = fs.readdirSync(path.join(journalDir, summary!.transactionId, 'backup')).sort();
    expect(backups.map((name) => fs.readFileSync(path.join(journalDir, summary!.transactionId, 'backup', name), 'utf8'))).toEqual([
      'old a',
      'bye',
    ]);
  });

  it('links backups before the journal flush and writes every new version before flushing any, small and large alike', async () => {
    const { sandbox, target, journalDir } = workspace();
    const large = Buffer.alloc(300 * 1024, 7); // above the size copied from memory
    large.write('a large file', 1000);
    writeTree(target, { 'a.txt': 'old a', 'b.txt': 'old b' });
    writeTree(sandbox, { 'a.txt': 'new a', 'b.txt': 'new b', 'run.sh': '#!/bin/sh\n' });
    fs.writeFileSync(path.join(sandbox, 'large.bin'), large);
    fs.chmodSync(path.join(sandbox, 'run.sh'), 0o755);
    const ops: TransactionOp[] = [
      { relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'file', sha256: sha('old a') } },
      { relPath: 'b.txt', kind: 'write', sourcePath: path.join(sandbox, 'b.txt'), expect: { kind: 'file', sha256: sha('old b') } },
      { relPath: 'run.sh', kind: 'write', sourcePath: path.join(sandbox, 'run.sh'), expect: { kind: 'absent' } },
      { relPath: 'large.bin', kind: 'write', sourcePath: path.join(sandbox, 'large.bin'), expect: { kind: 'absent' } },
    ];
    const seen: Record<string, number> = {};
    const result = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops,
      concurrency: 1,
      hooks: {
        at(point) {
          if (seen[point] !== undefined) return;
          if (point === 'prepared') seen[point] = fs.readdirSync(path.join(journalDir, fs.readdirSync(journalDir)[0]!, 'backup')).length;
          if (point === 'staged') seen[point] = tempFilesIn(target).length;
        },
      },
    });
    expect(result.kind).toBe('applied');
    expect(seen).toEqual({ prepared: 2, staged: 4 });
    expect(fs.readFileSync(path.join(target, 'large.bin')).equals(large)).toBe(true);
    expect(fs.statSync(path.join(target, 'run.sh')).mode & 0o7777).toBe(0o755);
    expect(readTree(target)).toMatchObject({ 'a.txt': 'new a', 'b.txt': 'new b', 'run.sh': '#!/bin/sh\n' });
    const [summary] = await listTransactions(journalDir);
    expect(summary).toMatchObject({ state: 'committed' });
  });

  it('commits a mode that lets its owner write but not read', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(sandbox, { drop: 'drop box' });
    const ops: TransactionOp[] = [{ relPath: 'drop', kind: 'write', sourcePath: path.join(sandbox, 'drop'), mode: 0o200, expect: { kind: 'absent' } }];
    const result = await asOrdinaryUser(path.dirname(target), () => applyTransaction({ journalDir, targetRoot: target, ops }));
    expect(result.kind).toBe('applied');
    expect(fs.statSync(path.join(target, 'drop')).mode & 0o7777).toBe(0o200);
    expect(fs.readFileSync(path.join(target, 'drop'), 'utf8')).toBe('drop box');
  });

  it('fails, changing nothing, when a new version is swapped for a FIFO after the check, instead of waiting on it', async () => {
    const { target, commit } = swappedAfterCheck((source) => execFileSync('mkfifo', [source]));
    await expect(commit()).rejects.toThrow(/no longer a regular file/);
    expect(readTree(target)).toEqual({ 'a.txt': 'old a' });
  });

  it('handles odd names: spaces, newlines, leading dashes, unicode', async () => {
    const { sandbox, target, journalDir } = workspace();
    const names = ['with space.txt', 'line\nbreak', '-rf', '--', 'é ü 日本.md', ' lead and trail '];
    writeTree(sandbox, Object.fromEntries(names.map((name, i) => [`s${i}`, `content ${name}`])));
    const ops: TransactionOp[] = names.map((name, i) => ({
      relPath: `odd dir/${name}`,
      kind: 'write',
      sourcePath: path.join(sandbox, `s${i}`),
      expect: { kind: 'absent' },
    }));
    expect((await applyTransaction({ journalDir, targetRoot: target, ops })).kind).toBe('applied');
    for (const name of names) expect(fs.readFileSync(path.join(target, 'odd dir', name), 'utf8')).toBe(`content ${name}`);
    expect(tempFilesIn(target)).toEqual([]);
  });

  it('writes symlinks as symlinks, replaces a file by a symlink and a symlink by a file', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'f.txt': 'was a file', 'link': { link: 'old-target' } });
    writeTree(sandbox, { 'link-src': { link: '../somewhere else' }, 'file-src': 'now a file', 'dangling': { link: 'missing' } });
    const result = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops: [
        { relPath: 'f.txt', kind: 'write', sourcePath: path.join(sandbox, 'link-src'), expect: { kind: 'file', sha256: sha('was a file') } },
        { relPath: 'link', kind: 'write', sourcePath: path.join(sandbox, 'file-src'), expect: { kind: 'symlink', target: 'old-target' } },
        { relPath: 'new-link', kind: 'write', sourcePath: path.join(sandbox, 'dangling'), expect: { kind: 'absent' } },
      ],
    });
    expect(result.kind).toBe('applied');
    expect(readTree(target)).toEqual({ 'f.txt': '-> ../somewhere else', link: 'now a file', 'new-link': '-> missing' });
  });

  it('deletes a symlink without following it', async () => {
    const { target, journalDir } = workspace();
    const outside = tempDir();
    writeTree(outside, { 'precious.txt': 'keep me' });
    writeTree(target, { 'ln': { link: path.join(outside, 'precious.txt') } });
    const result = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops: [{ relPath: 'ln', kind: 'delete', expect: { kind: 'symlink', target: path.join(outside, 'precious.txt') } }],
    });
    expect(result.kind).toBe('applied');
    expect(readTree(target)).toEqual({});
    expect(fs.readFileSync(path.join(outside, 'precious.txt'), 'utf8')).toBe('keep me');
  });

  it('sets mode bits from the source, or from the op, including a mode-only change', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'run.sh': 'echo hi' });
    writeTree(sandbox, { 'run.sh': 'echo hi', 'secret': 's' });
    fs.chmodSync(path.join(target, 'run.sh'), 0o644);
    fs.chmodSync(path.join(sandbox, 'run.sh'), 0o755);
    const result = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops: [
        { relPath: 'run.sh', kind: 'write', sourcePath: path.join(sandbox, 'run.sh'), expect: { kind: 'any' } },
        { relPath: 'secret', kind: 'write', sourcePath: path.join(sandbox, 'secret'), mode: 0o600, expect: { kind: 'absent' } },
      ],
    });
    expect(result.kind).toBe('applied');
    expect(fs.statSync(path.join(target, 'run.sh')).mode & 0o7777).toBe(0o755);
    expect(fs.statSync(path.join(target, 'secret')).mode & 0o7777).toBe(0o600);
  });

  it('cancelled before making anything, leaves no journal and no folder of someone else removed', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(sandbox, { b: 'b' });
    const controller = new AbortController();
    const ops: TransactionOp[] = [{ relPath: 'sub/b', kind: 'write', sourcePath: path.join(sandbox, 'b'), expect: { kind: 'absent' } }];
    const hooks = {
      at(point: string) {
        if (point !== 'prepared') return;
        fs.mkdirSync(path.join(target, 'sub')); // someone makes the folder the commit was about to make
        controller.abort();
      },
    };
    await expect(applyTransaction({ journalDir, targetRoot: target, ops, signal: controller.signal, hooks })).rejects.toBeInstanceOf(CancelledError);
    expect(readTree(target)).toEqual({ sub: '<dir>' });
    expect(fs.readdirSync(journalDir)).toEqual([]);
  });

  it('cancelled after making folders, removes only the folders it made', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(sandbox, { b: 'b', c: 'c' });
    const controller = new AbortController();
    const ops: TransactionOp[] = [
      { relPath: 'sub/b', kind: 'write', sourcePath: path.join(sandbox, 'b'), expect: { kind: 'absent' } },
      { relPath: 'mine/c', kind: 'write', sourcePath: path.join(sandbox, 'c'), expect: { kind: 'absent' } },
    ];
    const hooks = {
      at(point: string) {
        if (point === 'prepared') fs.mkdirSync(path.join(target, 'sub')); // someone makes one of the two folders first
        if (point === 'staged') controller.abort();
      },
    };
    await expect(applyTransaction({ journalDir, targetRoot: target, ops, signal: controller.signal, hooks })).rejects.toBeInstanceOf(CancelledError);
    expect(readTree(target)).toEqual({ sub: '<dir>' });
    expect(tempFilesIn(target)).toEqual([]);
  });

  it('cancels before the commit point and leaves everything as it was', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'a.txt': 'old' });
    writeTree(sandbox, { 'a.txt': 'new', b: 'b' });
    const controller = new AbortController();
    const ops: TransactionOp[] = [
      { relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'any' } },
      { relPath: 'sub/b', kind: 'write', sourcePath: path.join(sandbox, 'b'), expect: { kind: 'absent' } },
    ];
    const hooks = { at: (point: string) => void (point === 'staged' && controller.abort()) };
    await expect(applyTransaction({ journalDir, targetRoot: target, ops, signal: controller.signal, hooks })).rejects.toBeInstanceOf(
      CancelledError,
    );
    expect(readTree(target)).toEqual({ 'a.txt': 'old' });
    expect((await listTransactions(journalDir))[0]!.state).toBe('rolled_back');
  });

  it('undoes the renames already done when a later step fails, and says so', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'a.txt': 'old a', 'b.txt': 'old b' });
    writeTree(sandbox, { 'a.txt': 'new a', 'b.txt': 'new b', c: 'c' });
    const ops: TransactionOp[] = ['a.txt', 'b.txt'].map((relPath) => ({
      relPath,
      kind: 'write',
      sourcePath: path.join(sandbox, relPath),
      expect: { kind: 'any' },
    }));
    ops.push({ relPath: 'made/c', kind: 'write', sourcePath: path.join(sandbox, 'c'), expect: { kind: 'absent' } });
    let replaced = 0;
    const hooks = {
      at(point: string) {
        if (point === 'replaced' && ++replaced === 2) throw new Error('disk full');
      },
    };
    await expect(applyTransaction({ journalDir, targetRoot: target, ops, hooks })).rejects.toThrow(/disk full.*undone/);
    expect(readTree(target)).toEqual({ 'a.txt': 'old a', 'b.txt': 'old b' });
    expect(tempFilesIn(target)).toEqual([]);
  });

  it('commits an empty set of ops as an empty transaction', async () => {
    const { target, journalDir } = workspace();
    const result = await applyTransaction({ journalDir, targetRoot: target, ops: [] });
    expect(result).toMatchObject({ kind: 'applied', written: [], deleted: [] });
    expect((await listTransactions(journalDir)).map((t) => t.state)).toEqual(['committed']);
  });

  it('reports progress through every phase', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'a.txt': 'old' });
    writeTree(sandbox, { 'a.txt': 'new' });
    const phases = new Set<string>();
    await applyTransaction({
      journalDir,
      targetRoot: target,
      ops: [{ relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'any' } }],
      onProgress: (progress) => phases.add(progress.phase),
    });
    expect([...phases]).toEqual(['checking', 'staging', 'replacing', 'finishing']);
  });
});
