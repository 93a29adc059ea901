/**
 * A folder of the original swapped for a symlink to an outside copy in the middle of a commit
 * (issue 20, item 4): rollback must not look through the symlink (where it would see the old
 * versions and skip the restore), must say exactly which paths it left and where their backups
 * are, and must never claim every file is as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import * as journal from './journal/index.ts';
import type { JournalHooks } from './journal/index.ts';
import { SandboxManager } from '../sandbox-manager.ts';
import { listActivity, newManager } from '../../testing/sandbox/harness.ts';

const FILES = 30;

function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    const rel = path.relative(root, path.join(entry.parentPath, entry.name));
    if (entry.isSymbolicLink()) out[rel] = `-> ${fs.readlinkSync(path.join(root, rel))}`;
    else if (entry.isFile()) out[rel] = fs.readFileSync(path.join(root, rel), 'utf8');
  }
  return out;
}

/** After the 5th file renamed into `sub/`, moves `sub` aside and puts a symlink to a copy of its old files in its place. */
function swapper(original: string, outside: string): JournalHooks {
  let replacedInSub = 0;
  return {
    at(point, relPath) {
      if (point !== 'replaced' || !relPath?.startsWith('sub/') || ++replacedInSub !== 5) return;
      fs.renameSync(path.join(original, 'sub'), path.join(original, 'sub-moved'));
      for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(outside, `f${i}.txt`), `old ${i}\n`);
      fs.symlinkSync(outside, path.join(original, 'sub'));
    },
  };
}

describe('a folder swapped for a symlink mid-commit', () => {
  it('is not looked through by the rollback: the files elsewhere are put back, the swapped ones reported with their backups', async () => {
    const { dataDir, db, store, plan } = newManager();
    const manager = new SandboxManager({
      store,
      dataDir,
      journal: { ...journal, applyTransaction: (input) => journal.applyTransaction({ ...input, hooks: swapper(original, outside), concurrency: 1 }) },
    });
    const original = tempDir('bindery-orig-');
    const outside = tempDir('bindery-outside-');
    const files: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) Object.assign(files, { [`sub/f${i}.txt`]: `old ${i}\n`, [`top/g${i}.txt`]: `old g${i}\n` });
    writeFiles(original, files);
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    writeFiles(sandbox.path, Object.fromEntries(Object.keys(files).map((rel) => [rel, `new ${rel}\n`])));

    const error = await manager.commit(sandbox.id).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/left \d+ path\(s\) (in .* )?not as before: sub\/f\d+\.txt, .*: its folder was moved/);
    expect(error?.message).not.toMatch(/every file is as before|nothing was written/);
    const backupDir = /kept in (\S+) /.exec(error!.message)![1]!;
    expect(fs.readdirSync(backupDir).length).toBeGreaterThan(0);

    const after = tree(original);
    // Outside the swapped folder every file is back; the outside copy was not touched.
    for (let i = 0; i < FILES; i++) expect(after[`top/g${i}.txt`]).toBe(`old g${i}\n`);
    expect(tree(outside)).toEqual(Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`f${i}.txt`, `old ${i}\n`])));
    // The moved folder holds the files the commit had renamed into it: each one is listed as left.
    const left = (error as unknown as { details: { untouched: journal.DriftedPath[] } }).details.untouched.map((p) => p.relPath);
    const newInMoved = Object.entries(after).filter(([rel, content]) => /^sub-moved\/f\d+\.txt$/.test(rel) && content.startsWith('new')).map(([rel]) => rel.replace('sub-moved/', 'sub/'));
    expect(newInMoved).toHaveLength(5);
    for (const rel of newInMoved) expect(left).toContain(rel);
    expect(error?.message).toMatch(/\.bindery-tmp- file of this commit may remain in the folder wherever it went/);
    expect(listActivity(db, { limit: 5 }).map((entry) => entry.kind)).toContain('commit.rolled_back');
    // The journal ended, keeping the backups; recovery has nothing to do.
    expect((await journal.listTransactions(path.join(dataDir, 'journal'))).map((t) => t.state)).toEqual(['rolled_back']);
    expect(await journal.recoverTransactions(path.join(dataDir, 'journal'))).toEqual([]);
  });
});
