import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyTransaction } from './index.ts';
import { lookAtTransactions } from './pending.ts';
import { sha, tempDir, workspace, writeTree } from './testing/test-support.ts';

async function commitOne(target: string, sandbox: string, journalDir: string): Promise<string> {
  writeTree(target, { 'a.txt': 'old a' });
  writeTree(sandbox, { 'a.txt': 'new a' });
  const result = await applyTransaction({
    journalDir,
    targetRoot: target,
    ops: [{ relPath: 'a.txt', kind: 'write', sourcePath: path.join(sandbox, 'a.txt'), expect: { kind: 'file', sha256: sha('old a') } }],
  });
  if (result.kind !== 'applied') throw new Error('the commit did not apply');
  return result.transactionId;
}

function stateFiles(journalDir: string, id: string): string[] {
  return fs.readdirSync(path.join(journalDir, id)).filter((name) => name.startsWith('state-')).sort();
}

describe('lookAtTransactions', () => {
  it('has nothing to say about a journal folder that is not there', async () => {
    expect(await lookAtTransactions(path.join(tempDir(), 'journal'))).toEqual([]);
  });

  it('reads a settled commit from its state file and names its owner', async () => {
    const { sandbox, target, journalDir } = workspace();
    const id = await commitOne(target, sandbox, journalDir);
    expect(await lookAtTransactions(journalDir)).toEqual([{ transactionId: id, settled: 'committed', owner: { pid: process.pid, host: expect.any(String) } }]);
    // From the first bytes alone, as the journal writes them today (the rest is never parsed on this path).
    const file = path.join(journalDir, id, stateFiles(journalDir, id)[0]!);
    fs.truncateSync(file, fs.readFileSync(file, 'utf8').indexOf('"createdDirs"'));
    expect((await lookAtTransactions(journalDir))[0]).toMatchObject({ transactionId: id, settled: 'committed' });
  });

  it('counts a journal with a state change cut short (two state files), or only its first state, as possibly interrupted', async () => {
    const { sandbox, target, journalDir } = workspace();
    const id = await commitOne(target, sandbox, journalDir);
    const [newest] = stateFiles(journalDir, id).reverse();
    const seq = Number(/state-(\d+)/.exec(newest!)![1]);
    // A later state begun and torn: the newer file is half written.
    const torn = path.join(journalDir, id, `state-${String(seq + 1).padStart(6, '0')}.json`);
    fs.writeFileSync(torn, fs.readFileSync(path.join(journalDir, id, newest!), 'utf8').replace('"committed"', '"undoing"').slice(0, 120));
    expect((await lookAtTransactions(journalDir))[0]).toMatchObject({ transactionId: id, settled: null });
    fs.rmSync(torn);
    fs.renameSync(path.join(journalDir, id, newest!), path.join(journalDir, id, 'state-000001.json'));
    expect((await lookAtTransactions(journalDir))[0]).toMatchObject({ settled: null });
    fs.rmSync(path.join(journalDir, id, 'state-000001.json'));
    // No state at all, just made: a commit starting in some process (recovery gives it a grace period too).
    expect(await lookAtTransactions(journalDir)).toEqual([{ transactionId: id, settled: null, owner: null, starting: true }]);
  });

  it('reads the whole journal when its first bytes are not as expected (another key order, a very long folder path)', async () => {
    const { sandbox, target, journalDir } = workspace();
    const id = await commitOne(target, sandbox, journalDir);
    const [newest] = stateFiles(journalDir, id);
    const file = path.join(journalDir, id, newest!);
    const { state, ...rest } = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...rest, state }));
    expect((await lookAtTransactions(journalDir))[0]).toMatchObject({ transactionId: id, settled: 'committed' });
  });
  it('names the owner of a state change under way from the state before it, while the new file has no readable start yet', async () => {
    const { sandbox, target, journalDir } = workspace();
    const id = await commitOne(target, sandbox, journalDir);
    const [settled] = stateFiles(journalDir, id);
    const next = Number(/\d{6}/.exec(settled!)![0]) + 1;
    fs.writeFileSync(path.join(journalDir, id, `state-${String(next).padStart(6, '0')}.json`), '');
    expect((await lookAtTransactions(journalDir))[0]).toEqual({ transactionId: id, settled: null, owner: { pid: process.pid, host: expect.any(String) } });
  });
});
