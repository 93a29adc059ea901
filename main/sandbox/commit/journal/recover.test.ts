import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createJournal, newRecord, newTransactionId, readJournal, stagedPath, transactionDir, type JournalRecord } from './journal-file.ts';
import {
  abandonTransaction,
  applyTransaction,
  listTransactions,
  purgeTransactions,
  recoverTransactions,
  undoTransaction,
  type RecoveredTransaction,
  type TransactionOp,
} from './index.ts';
import { locksDirOf } from './process-lock.ts';
import { readTree, sha, tempFilesIn, workspace, writeTree } from './testing/test-support.ts';
import { tsxEvalArgs } from '../../../testing/child-process.ts';

/** A journal in state `prepared`, as a commit leaves it when it dies right after writing it. */
async function preparedJournal(journalDir: string, targetRoot: string, ownerPid: number): Promise<string> {
  const record = newRecord(newTransactionId(), targetRoot, ['made'], []);
  record.owner.pid = ownerPid;
  await (await createJournal(journalDir, record))();
  return record.transactionId;
}

/** A child process holding the cross-process lock of `key` until killed. */
function lockHolder(locksDir: string, key: string): Promise<ChildProcess> {
  const script = `const { withLocks } = await import(${JSON.stringify(path.join(import.meta.dirname, 'process-lock.ts'))});
await withLocks(${JSON.stringify(locksDir)}, [{ key: ${JSON.stringify(key)}, label: 'committing' }], async () => { process.stdout.write('held\\n'); await new Promise(() => setInterval(() => {}, 1000)); });`;
  const child = spawn(process.execPath, tsxEvalArgs(script), { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => chunk.includes('held') && resolve(child));
  });
}

function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('recoverTransactions', () => {
  it('leaves a journal alone while its live owner holds its folder\'s lock, and recovers it once that owner is gone or left it', async () => {
    const { target, journalDir } = workspace();
    fs.mkdirSync(path.join(target, 'made'));
    const holder = await lockHolder(locksDirOf(journalDir), target);
    const live = await preparedJournal(journalDir, target, holder.pid!);
    expect(await recoverTransactions(journalDir)).toEqual([]);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('close', resolve));
    // A live process that is not at work on it (it failed and left it) does not keep it from recovery.
    const idle = await preparedJournal(journalDir, target, process.ppid);
    const dead = await preparedJournal(journalDir, target, deadPid());
    expect(await recoverTransactions(journalDir)).toEqual([live, idle, dead].map((transactionId) => ({ transactionId, outcome: 'rolled_back' })));
    expect(readTree(target)).toEqual({});
  }, 30_000);

  it('rolls back past a state file torn by a crash mid-write, and writes its next state after it', async () => {
    const { target, journalDir } = workspace();
    const id = await preparedJournal(journalDir, target, deadPid());
    fs.writeFileSync(path.join(transactionDir(journalDir, id), 'state-000002.json'), '{"format":1,"seq":2,"state":"commi');
    expect(await recoverTransactions(journalDir)).toEqual([{ transactionId: id, outcome: 'rolled_back' }]);
    expect((await listTransactions(journalDir)).map((t) => t.state)).toEqual(['rolled_back']);
    expect(await recoverTransactions(journalDir)).toEqual([]);
  });

  it('removes a transaction folder that never got a journal only once it is old', async () => {
    const { journalDir } = workspace();
    const id = newTransactionId();
    fs.mkdirSync(path.join(transactionDir(journalDir, id), 'backup'), { recursive: true });
    fs.writeFileSync(path.join(transactionDir(journalDir, id), 'state-000001.json'), '{"format":1,"tr');
    expect(await recoverTransactions(journalDir)).toEqual([]);
    expect(fs.existsSync(transactionDir(journalDir, id))).toBe(true);
    const anHourAgo = new Date(Date.now() - 60 * 60 * 1000);
    fs.utimesSync(transactionDir(journalDir, id), anHourAgo, anHourAgo);
    expect(await recoverTransactions(journalDir)).toEqual([]);
    expect(fs.readdirSync(journalDir)).toEqual([]);
  });

  it('returns nothing for a missing journal folder', async () => {
    const { journalDir } = workspace();
    expect(await recoverTransactions(path.join(journalDir, 'never-made'))).toEqual([]);
  });
});

describe('listTransactions and purgeTransactions', () => {
  it('lists per target folder and purges only finished transactions older than the cutoff', async () => {
    const { sandbox, target, journalDir } = workspace();
    const other = path.join(path.dirname(target), 'other');
    fs.mkdirSync(other);
    writeTree(sandbox, { n: 'new' });
    const op = { relPath: 'n', kind: 'write' as const, sourcePath: path.join(sandbox, 'n'), expect: { kind: 'any' as const } };
    const first = await applyTransaction({ journalDir, targetRoot: target, ops: [op] });
    const second = await applyTransaction({ journalDir, targetRoot: other, ops: [op] });
    const unfinished = await preparedJournal(journalDir, target, process.ppid);
    expect((await listTransactions(journalDir, target)).map((t) => t.state)).toEqual(['committed', 'prepared']);
    expect(await purgeTransactions(journalDir, new Date(Date.now() + 1000))).toEqual(
      [first, second].map((result) => (result.kind === 'applied' ? result.transactionId : '')),
    );
    expect((await listTransactions(journalDir)).map((t) => t.transactionId)).toEqual([unfinished]);
  });
});

describe('final states', () => {
  function stateFiles(journalDir: string, transactionId: string): string[] {
    const dir = transactionDir(journalDir, transactionId);
    return fs.readdirSync(dir).filter((name) => name.startsWith('state-')).map((name) => (JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as JournalRecord).state);
  }

  it('are durable before a commit, undo or rollback returns: each supersedes the states before it', async () => {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'a.txt': 'old a', 'b.txt': 'old b' });
    writeTree(sandbox, { 'a.txt': 'new a' });
    const write = { relPath: 'a.txt', kind: 'write' as const, sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'file' as const, sha256: sha('old a') } };
    const applied = await applyTransaction({ journalDir, targetRoot: target, ops: [write] });
    if (applied.kind !== 'applied') throw new Error('the commit did not apply');
    expect(stateFiles(journalDir, applied.transactionId)).toEqual(['committed']);
    await undoTransaction({ journalDir, targetRoot: target, transactionId: applied.transactionId });
    expect(stateFiles(journalDir, applied.transactionId)).toEqual(['undone']);

    writeTree(sandbox, { 'b.txt': 'new b' });
    const ops = [write, { relPath: 'b.txt', kind: 'write' as const, sourcePath: path.join(sandbox, 'b.txt'), expect: { kind: 'file' as const, sha256: sha('old b') } }];
    const hooks = { at: (point: string, relPath?: string) => void (point === 'before_replace' && relPath === 'b.txt' && fs.writeFileSync(path.join(target, 'b.txt'), 'changed')) };
    expect(await applyTransaction({ journalDir, targetRoot: target, ops, hooks, concurrency: 1 })).toMatchObject({ kind: 'drifted' });
    const [, rolledBack] = await listTransactions(journalDir);
    expect(stateFiles(journalDir, rolledBack!.transactionId)).toEqual(['rolled_back']);
    expect(readTree(target)).toEqual({ 'a.txt': 'old a', 'b.txt': 'changed' });
  });

  it('a commit interrupted past its commit point is rolled back when a file changed before its rename', async () => {
    const { target, journalDir, record } = await interruptedBeforeRenameOfA();
    fs.writeFileSync(path.join(target, 'a.txt'), 'changed before the rename');
    expect(await recoverTransactions(journalDir)).toEqual([
      { transactionId: record.transactionId, outcome: 'rolled_back', untouched: [{ relPath: 'a.txt', reason: expect.stringContaining('neither') }] },
    ]);
    expect(readTree(target)).toEqual({ 'a.txt': 'changed before the rename', 'b.txt': 'old b' });
  });
});

describe('a commit interrupted past its commit point whose staged file is not the one the journal names', () => {
  // Someone removed or overwrote a .bindery-tmp- file while Bindery was not running, or the disk lost it.
  it.each([
    ['short', (file: string) => fs.writeFileSync(file, 'new')],
    ['missing', (file: string) => fs.rmSync(file)],
  ])('rolls the commit back when a staged file is %s, and leaves every file as it was', async (_how, lose) => {
    const { target, journalDir, record } = await interruptedBeforeRenameOfA();
    fs.writeFileSync(stagedPath(record, record.ops[1]!), 'new b');
    fs.writeFileSync(path.join(target, 'b.txt'), 'old b');
    lose(stagedPath(record, record.ops[1]!));
    expect(await recoverTransactions(journalDir)).toEqual([{ transactionId: record.transactionId, outcome: 'rolled_back' }]);
    expect(readTree(target)).toEqual({ 'a.txt': 'old a', 'b.txt': 'old b' });
    expect((await listTransactions(journalDir)).map((t) => t.state)).toEqual(['rolled_back']);
  });
});

describe('a commit interrupted while its folder is away', () => {
  it('waits, untouched, and is finished before the next commit to the folder once it is back', async () => {
    const { sandbox, target, journalDir, record } = await interruptedBeforeRenameOfA();
    const away = `${target}-unmounted`;
    fs.renameSync(target, away);
    expect(await recoverTransactions(journalDir)).toEqual([{ transactionId: record.transactionId, outcome: 'waiting', reason: expect.stringContaining('is not there') }]);
    expect((await listTransactions(journalDir)).map((t) => t.state)).toEqual(['committing']);
    expect(tempFilesIn(away)).toHaveLength(1);

    fs.renameSync(away, target);
    writeTree(sandbox, { 'c.txt': 'new c' });
    const settled: RecoveredTransaction[] = [];
    const next = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops: [{ relPath: 'c.txt', kind: 'write', sourcePath: path.join(sandbox, 'c.txt'), expect: { kind: 'absent' } }],
      onRecovered: (done) => settled.push(done),
    });
    expect(next.kind).toBe('applied');
    expect(settled).toEqual([{ transactionId: record.transactionId, outcome: 'completed', written: ['a.txt', 'b.txt'], deleted: [], committed: { 'a.txt': expect.objectContaining({ kind: 'file' }), 'b.txt': expect.objectContaining({ kind: 'file' }) } }]);
    expect(readTree(target)).toEqual({ 'a.txt': 'new a', 'b.txt': 'new b', 'c.txt': 'new c' });
    expect((await listTransactions(journalDir)).map((t) => t.state)).toEqual(['committed', 'committed']);
    expect(await recoverTransactions(journalDir)).toEqual([]);
  });

  it('stays waiting when finishing it fails, so a later commit still finishes it first', async () => {
    const { sandbox, target, journalDir } = await interruptedBeforeRenameOfA();
    fs.renameSync(await recoverWhileAway(journalDir, target), target);
    const rename = fs.renameSync;
    const failing = vi.spyOn(fs, 'renameSync').mockImplementationOnce(() => {
      throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
    });
    await expect(applyTransaction({ journalDir, targetRoot: target, ops: [writeOp(sandbox, 'c.txt', 'new c')] })).rejects.toThrow(/is not finished, so nothing was written: finishing it failed \(EIO/);
    failing.mockRestore();
    expect(fs.renameSync).toBe(rename);
    expect(await applyTransaction({ journalDir, targetRoot: target, ops: [writeOp(sandbox, 'c.txt', 'new c')] })).toMatchObject({ kind: 'applied' });
    expect(readTree(target)).toMatchObject({ 'a.txt': 'new a', 'b.txt': 'new b', 'c.txt': 'new c' });
    expect(tempFilesIn(target)).toEqual([]);
  });

  it('refuses commits to the folder through a symlink, and is settled before a commit to a folder around it', async () => {
    const { sandbox, target, journalDir, record } = await interruptedBeforeRenameOfA('sub');
    const sub = path.join(target, 'sub');
    const away = await recoverWhileAway(journalDir, sub);
    fs.symlinkSync(away, sub);
    await expect(applyTransaction({ journalDir, targetRoot: sub, ops: [writeOp(sandbox, 'c.txt', 'new c')] })).rejects.toThrow(
      /An interrupted commit or undo to .*sub .* is not finished, so nothing was written: its folder .* is not there as it was/,
    );
    fs.unlinkSync(sub);
    fs.renameSync(away, sub);
    // Back in place: a commit to the folder around it finishes it first, then writes over its result.
    const settled: RecoveredTransaction[] = [];
    const around = await applyTransaction({ journalDir, targetRoot: target, ops: [writeOp(sandbox, 'sub/a.txt', 'new a')], onRecovered: (done) => settled.push(done) });
    expect(around.kind).toBe('applied');
    expect(settled).toEqual([{ transactionId: record.transactionId, outcome: 'completed', written: ['a.txt', 'b.txt'], deleted: [], committed: { 'a.txt': expect.objectContaining({ kind: 'file' }), 'b.txt': expect.objectContaining({ kind: 'file' }) } }]);
    expect(readTree(sub)).toEqual({ 'a.txt': 'new a', 'b.txt': 'new b' });
    expect((await listTransactions(journalDir)).map((t) => t.state)).toEqual(['committed', 'committed']);
    expect(tempFilesIn(target)).toEqual([]);
  });

  it('can be abandoned while its folder is away, and then no longer holds up commits to that path', async () => {
    const { sandbox, target, journalDir, record } = await interruptedBeforeRenameOfA();
    await expect(abandonTransaction(journalDir, record.transactionId)).rejects.toThrow(/is not waiting for its folder/);
    // The folder comes back only through a symlink: the commit keeps waiting, and commits through that path are refused.
    fs.symlinkSync(await recoverWhileAway(journalDir, target), target);
    await expect(applyTransaction({ journalDir, targetRoot: target, ops: [writeOp(sandbox, 'c.txt', 'new c')] })).rejects.toThrow(/is not finished/);
    expect(await abandonTransaction(journalDir, record.transactionId)).toMatchObject({ outcome: 'rolled_back', untouched: [{ relPath: 'a.txt' }, { relPath: 'b.txt' }] });
    expect((await listTransactions(journalDir)).map((t) => t.state)).toEqual(['rolled_back']);
    expect(fs.readdirSync(path.join(transactionDir(journalDir, record.transactionId), 'backup'))).toHaveLength(2);
    expect(await applyTransaction({ journalDir, targetRoot: target, ops: [writeOp(sandbox, 'c.txt', 'new c')] })).toMatchObject({ kind: 'applied' });
    await expect(abandonTransaction(journalDir, record.transactionId)).rejects.toThrow(/is not waiting/);
  });

  it('killed during its check, can be abandoned while its folder is away, and says it changed nothing there', async () => {
    const { target, journalDir } = workspace();
    writeTree(target, { 'a.txt': 'old a' });
    const record = newRecord(newTransactionId(), fs.realpathSync(target), [], [{ index: 0, relPath: 'a.txt', kind: 'write', dirRel: '', name: 'a.txt', old: null, next: null }]);
    record.owner.pid = deadPid();
    await (await createJournal(journalDir, record))();
    await recoverWhileAway(journalDir, target);
    expect(await abandonTransaction(journalDir, record.transactionId)).toMatchObject({
      outcome: 'rolled_back',
      untouched: [{ relPath: 'a.txt', reason: expect.stringMatching(/before the commit changed this path/) }],
    });
  });

  it('cannot be abandoned once its folder is back: it is finished instead', async () => {
    const { target, journalDir, record } = await interruptedBeforeRenameOfA();
    fs.renameSync(await recoverWhileAway(journalDir, target), target);
    await expect(abandonTransaction(journalDir, record.transactionId)).rejects.toThrow(/is back: commit to it or run recovery/);
    expect(await recoverTransactions(journalDir)).toMatchObject([{ outcome: 'completed' }]);
  });

  it('no longer holds up commits once its journal is gone', async () => {
    const { sandbox, target, journalDir, record } = await interruptedBeforeRenameOfA();
    const away = await recoverWhileAway(journalDir, target);
    fs.rmSync(transactionDir(journalDir, record.transactionId), { recursive: true });
    fs.renameSync(away, target);
    expect(await applyTransaction({ journalDir, targetRoot: target, ops: [writeOp(sandbox, 'c.txt', 'new c')] })).toMatchObject({ kind: 'applied' });
  });
});

/**
 * A commit of a.txt and b.txt into `root` (the target, or a folder in it) as a crash right after
 * b.txt's rename leaves it: state `committing`, b.txt new, a.txt old with its staged file beside
 * it, owned by a process that is gone.
 */
async function interruptedBeforeRenameOfA(sub = '') {
  const dirs = workspace();
  const { sandbox, journalDir } = dirs;
  const root = path.join(dirs.target, sub);
  writeTree(root, { 'a.txt': 'old a', 'b.txt': 'old b' });
  writeTree(sandbox, { 'a.txt': 'new a', 'b.txt': 'new b' });
  const ops = (['a', 'b'] as const).map((name) => ({
    relPath: `${name}.txt`,
    kind: 'write' as const,
    sourcePath: path.join(sandbox, `${name}.txt`),
    expect: { kind: 'file' as const, sha256: sha(`old ${name}`) },
  }));
  const applied = await applyTransaction({ journalDir, targetRoot: root, ops });
  if (applied.kind !== 'applied') throw new Error('the commit did not apply');
  const record = await readJournal(journalDir, applied.transactionId);
  Object.assign(record, { state: 'committing', seq: record.seq + 1, owner: { ...record.owner, pid: deadPid() } });
  fs.writeFileSync(path.join(transactionDir(journalDir, record.transactionId), `state-${String(record.seq).padStart(6, '0')}.json`), JSON.stringify(record));
  fs.writeFileSync(stagedPath(record, record.ops[0]!), 'new a');
  fs.writeFileSync(path.join(root, 'a.txt'), 'old a');
  return { ...dirs, root, record };
}

/** Recovery with `root` away: the transaction waits. */
async function recoverWhileAway(journalDir: string, root: string): Promise<string> {
  const away = `${root}-away`;
  fs.renameSync(root, away);
  expect((await recoverTransactions(journalDir)).map((t) => t.outcome)).toEqual(['waiting']);
  return away;
}

function writeOp(sandbox: string, relPath: string, content: string): TransactionOp {
  const source = path.join(sandbox, `source-${relPath.replaceAll('/', '-')}`);
  fs.writeFileSync(source, content);
  return { relPath, kind: 'write', sourcePath: source, expect: { kind: 'any' } };
}
