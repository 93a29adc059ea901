import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeName, encodeName, inRoot } from '../../fs/index.ts';
import { readJournal, TEMP_PREFIX, transactionDir } from './journal-file.ts';
import { applyTransaction, listTransactions, recoverTransactions, undoTransaction, type TransactionOp } from './index.ts';
import { sha, workspace } from './testing/test-support.ts';
import { tsxArgs } from '../../../testing/child-process.ts';

/** A name from raw bytes, escaped as change detection gives it (see main/sandbox/fs/paths.ts). */
const named = (...bytes: number[]): string => decodeName(Buffer.from(bytes));

const FILE = named(0x66, 0xff, 0x2e, 0x74); // "f\xff.t"
const DIR = named(0x64, 0xfe); // "d\xfe"
const GONE = named(0x67, 0xfd);
const LINK = named(0x6c, 0xfc);
const OLD_TARGET = named(0x74, 0xfb);
const NEW_TARGET = named(0x78, 0xf8);

function writeExact(root: string, rel: string, content: string | { link: string }): void {
  fs.mkdirSync(inRoot(root, path.posix.dirname(rel) === '.' ? '' : path.posix.dirname(rel)), { recursive: true });
  if (typeof content === 'string') fs.writeFileSync(inRoot(root, rel), content);
  else fs.symlinkSync(encodeName(content.link), inRoot(root, rel));
}

/** Every entry under `root` by its exact (escaped) path: file content, `-> target`, or `<dir>`. */
function treeExact(root: string, rel = ''): Record<string, string> {
  const tree: Record<string, string> = {};
  for (const bytes of fs.readdirSync(inRoot(root, rel), { encoding: 'buffer' })) {
    const child = rel ? `${rel}/${decodeName(bytes)}` : decodeName(bytes);
    const at = inRoot(root, child);
    const stat = fs.lstatSync(at);
    if (stat.isSymbolicLink()) tree[child] = `-> ${decodeName(fs.readlinkSync(at, { encoding: 'buffer' }))}`;
    else if (stat.isDirectory()) Object.assign(tree, { [child]: '<dir>' }, treeExact(root, child));
    else tree[child] = fs.readFileSync(at, 'utf8');
  }
  return tree;
}

const OLD = { [FILE]: 'old', [GONE]: 'bye', [LINK]: `-> ${OLD_TARGET}` };
const NEW = { [FILE]: 'new', [DIR]: '<dir>', [`${DIR}/${FILE}`]: 'added', [LINK]: `-> ${NEW_TARGET}` };

/** A target holding the old versions and a sandbox whose own names are not UTF-8 either. */
function setUp(): { sandbox: string; target: string; journalDir: string; ops: TransactionOp[] } {
  const dirs = workspace();
  const { sandbox, target } = dirs;
  writeExact(target, FILE, 'old');
  writeExact(target, GONE, 'bye');
  writeExact(target, LINK, { link: OLD_TARGET });
  writeExact(sandbox, FILE, 'new');
  writeExact(sandbox, `${DIR}/${FILE}`, 'added');
  writeExact(sandbox, LINK, { link: NEW_TARGET });
  const ops: TransactionOp[] = [
    { relPath: FILE, kind: 'write', sourcePath: path.join(sandbox, FILE), expect: { kind: 'file', sha256: sha('old') } },
    { relPath: `${DIR}/${FILE}`, kind: 'write', sourcePath: path.join(sandbox, DIR, FILE), expect: { kind: 'absent' } },
    { relPath: GONE, kind: 'delete', expect: { kind: 'file', sha256: sha('bye') } },
    { relPath: LINK, kind: 'write', sourcePath: path.join(sandbox, LINK), expect: { kind: 'symlink', target: OLD_TARGET } },
  ];
  return { ...dirs, ops };
}

function runCrashChild(scenarioFile: string, target: string, journalDir: string, point: string): ReturnType<typeof spawnSync> {
  const child = path.join(import.meta.dirname, 'testing/crash-child.ts');
  const env = { ...process.env, BINDERY_CRASH_POINT: point, BINDERY_CRASH_AT: '1' };
  return spawnSync(process.execPath, tsxArgs(child, ['apply', scenarioFile, target, journalDir]), { env, encoding: 'utf8' });
}

describe('names that are not UTF-8', () => {
  it('are committed byte for byte, recorded losslessly in the journal, and undone', async () => {
    const { target, journalDir, ops } = setUp();
    const result = await applyTransaction({ journalDir, targetRoot: target, ops });
    expect(result).toMatchObject({ kind: 'applied', written: [FILE, `${DIR}/${FILE}`, LINK], deleted: [GONE] });
    if (result.kind !== 'applied') return;
    expect(treeExact(target)).toEqual(NEW);
    expect(fs.existsSync(Buffer.concat([Buffer.from(`${target}/`), Buffer.from([0x66, 0xff, 0x2e, 0x74])]))).toBe(true);
    const record = await readJournal(journalDir, result.transactionId);
    expect(record.ops.map((op) => op.relPath)).toEqual(ops.map((op) => op.relPath));
    const stateFile = fs.readdirSync(transactionDir(journalDir, result.transactionId)).find((name) => name.startsWith('state-'))!;
    expect(fs.readFileSync(path.join(transactionDir(journalDir, result.transactionId), stateFile), 'utf8')).toContain('f\\udcff.t');

    expect(await undoTransaction({ journalDir, targetRoot: target, transactionId: result.transactionId })).toMatchObject({ kind: 'undone' });
    expect(treeExact(target)).toEqual(OLD);
  });

  it.each([
    ['replaced', 'completed', NEW],
    ['staged', 'rolled_back', OLD],
  ] as const)('are recovered after a crash at %s (%s)', async (point, outcome, expected) => {
    const { sandbox, target, journalDir, ops } = setUp();
    const scenarioFile = path.join(sandbox, '..', 'scenario.json');
    fs.writeFileSync(scenarioFile, JSON.stringify({ ops, paths: [] }));
    const run = runCrashChild(scenarioFile, target, journalDir, point);
    expect(run.signal, String(run.stderr)).toBe('SIGKILL');
    expect(await recoverTransactions(journalDir)).toMatchObject([{ transactionId: expect.any(String), outcome }]);
    const tree = treeExact(target);
    expect(Object.keys(tree).filter((rel) => path.posix.basename(rel).startsWith(TEMP_PREFIX))).toEqual([]);
    expect(tree).toEqual(expected);
    expect((await listTransactions(journalDir)).map((t) => t.state)).toEqual([outcome === 'completed' ? 'committed' : 'rolled_back']);
  });
});
