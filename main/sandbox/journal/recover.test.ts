import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJournal, newRecord, newTransactionId, stagedPath, transactionDir, type JournalRecord } from './journal-file.ts';
import { applyTransaction, listTransactions, purgeTransactions, recoverTransactions } from './index.ts';
import { readTree, sha, workspace, writeTree } from './test-support.ts';

/** A journal in state `prepared`, as a commit leaves it when it dies right after writing it. */
async function preparedJournal(journalDir: string, targetRoot: string, ownerPid: number): Promise<string> {
  const record = newRecord(newTransactionId(), targetRoot, ['made'], []);
  record.owner.pid = ownerPid;
  await (await createJournal(journalDir, record))();
  return record.transactionId;
}

function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('recoverTransactions', () => {
  it('leaves a journal owned by a live process alone, and recovers it once that process is gone', async () => {
    const { target, journalDir } = workspace();
    fs.mkdirSync(path.join(target, 'made'));
    const live = await preparedJournal(journalDir, target, process.ppid);
    expect(await recoverTransactions(journalDir)).toEqual([]);
    const dead = await preparedJournal(journalDir, target, deadPid());
    expect(await recoverTransactions(journalDir)).toEqual([{ transactionId: dead, outcome: 'rolled_back' }]);
    expect(readTree(target)).toEqual({});
    expect((await listTransactions(journalDir)).map((t) => [t.transactionId, t.state])).toEqual([
      [live, 'prepared'],
      [dead, 'rolled_back'],
    ]);
  });

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

describe('recovery of a commit whose last state was lost', () => {
  /** Commits a.txt and b.txt and deletes gone.txt, then loses the `committed` state (written without a flush) as a power cut can. */
  async function committedButUnrecorded() {
    const { sandbox, target, journalDir } = workspace();
    writeTree(target, { 'a.txt': 'old a', 'b.txt': 'old b', 'gone.txt': 'bye' });
    writeTree(sandbox, { 'a.txt': 'new a', 'b.txt': 'new b' });
    const result = await applyTransaction({
      journalDir,
      targetRoot: target,
      ops: [
        { relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'file', sha256: sha('old a') } },
        { relPath: 'b.txt', kind: 'write', sourcePath: path.join(sandbox, 'b.txt'), expect: { kind: 'file', sha256: sha('old b') } },
        { relPath: 'gone.txt', kind: 'delete', expect: { kind: 'file', sha256: sha('bye') } },
      ],
    });
    if (result.kind !== 'applied') throw new Error('the commit did not apply');
    const dir = transactionDir(journalDir, result.transactionId);
    const states = fs.readdirSync(dir).filter((name) => name.startsWith('state-')).sort();
    const committing = JSON.parse(fs.readFileSync(path.join(dir, states.at(-2)!), 'utf8')) as JournalRecord;
    expect([committing.state, states.length]).toEqual(['committing', 2]);
    fs.rmSync(path.join(dir, states.at(-1)!));
    committing.owner.pid = deadPid();
    fs.writeFileSync(path.join(dir, states.at(-2)!), JSON.stringify(committing));
    return { target, journalDir, transactionId: result.transactionId };
  }

  it('finishes it, keeping a change someone made to a committed file since', async () => {
    const { target, journalDir, transactionId } = await committedButUnrecorded();
    fs.writeFileSync(path.join(target, 'a.txt'), 'edited after the commit');
    expect(await recoverTransactions(journalDir)).toEqual([{ transactionId, outcome: 'completed' }]);
    expect(readTree(target)).toEqual({ 'a.txt': 'edited after the commit', 'b.txt': 'new b' });
    expect((await listTransactions(journalDir)).map((t) => t.state)).toEqual(['committed']);
  });

  it('still rolls back when a file holds neither version and its staged file was never renamed', async () => {
    const { target, journalDir, transactionId } = await committedButUnrecorded();
    const record = JSON.parse(fs.readFileSync(path.join(transactionDir(journalDir, transactionId), 'state-000002.json'), 'utf8')) as JournalRecord;
    // As if the crash came before a.txt's rename, and someone changed a.txt before recovery ran.
    fs.writeFileSync(stagedPath(record, record.ops[0]!), 'new a');
    fs.writeFileSync(path.join(target, 'a.txt'), 'changed before the rename');
    expect(await recoverTransactions(journalDir)).toEqual([
      { transactionId, outcome: 'rolled_back', untouched: [{ relPath: 'a.txt', reason: expect.stringContaining('neither') }] },
    ]);
    expect(readTree(target)).toEqual({ 'a.txt': 'changed before the rename', 'b.txt': 'old b', 'gone.txt': 'bye' });
  });
});
