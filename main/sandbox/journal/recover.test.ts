import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJournal, newRecord, newTransactionId, transactionDir } from './journal-file.ts';
import { applyTransaction, listTransactions, purgeTransactions, recoverTransactions } from './index.ts';
import { readTree, workspace, writeTree } from './test-support.ts';

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
