import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import { copyTree, reconcileWithCopy } from './copy-tree.ts';
import { RACY_WINDOW_MS } from '../changes/index.ts';
import { scanTree } from '../fs/index.ts';

const AN_HOUR_AGO = new Date(Date.now() - 3_600_000);

function age(root: string, rels: string[]): void {
  for (const rel of rels) fs.utimesSync(path.join(root, rel), AN_HOUR_AGO, AN_HOUR_AGO);
}

describe('copying a tree while it is scanned', () => {
  it('records every copied file with its stat, hashing those changed around the copy (an old mtime set just now included)', async () => {
    const source = tempDir('bindery-copy-src-');
    writeFiles(source, { 'a.txt': 'a', 'sub/b.txt': 'bb', 'sub/deep/c.txt': 'ccc' });
    age(source, ['a.txt', 'sub/b.txt', 'sub/deep/c.txt']);
    // Past the racy window, so only what changes from now on counts as changed around the copy.
    await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 100));
    // Like a tar extraction: the mtime is old, but the ctime says the file changed just now.
    writeFiles(source, { 'backdated.txt': 'new content, old mtime' });
    age(source, ['backdated.txt']);
    const target = path.join(tempDir('bindery-copy-dst-'), 'copy');
    const result = await copyTree(source, target);
    const byPath = Object.fromEntries(result.entries.map((e) => [e.path, e]));
    expect(Object.keys(byPath).sort()).toEqual(['a.txt', 'backdated.txt', 'sub/b.txt', 'sub/deep/c.txt']);
    expect(byPath['a.txt']).toMatchObject({ size: 1 });
    expect(byPath['a.txt']).not.toHaveProperty('racy');
    expect(byPath['a.txt']).not.toHaveProperty('sha256');
    expect(byPath['backdated.txt']).toMatchObject({ racy: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(fs.readFileSync(path.join(target, 'sub/deep/c.txt'), 'utf8')).toBe('ccc');
    expect(fs.readdirSync(target).filter((name) => name.startsWith('.bindery'))).toEqual([]);
  });

  it('makes the copy and the manifest agree where folders changed during the copy, and only there', async () => {
    const source = tempDir('bindery-copy-src-');
    writeFiles(source, { 'kept.txt': 'k', 'busy/seen.txt': 's', 'busy/deleted-after-copy.txt': 'd', 'busy/gone-dir/x.txt': 'x', 'quiet/seen.txt': 'q' });
    // The copy as cp made it, plus a stray name in a folder that does not change.
    const target = tempDir('bindery-copy-dst-');
    writeFiles(target, { 'kept.txt': 'k', 'busy/seen.txt': 's', 'busy/deleted-after-copy.txt': 'd', 'busy/gone-dir/x.txt': 'x', 'quiet/seen.txt': 'q', 'quiet/stray.txt': 'not looked at' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const copyStarted = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Meanwhile, in the original: deletions after cp passed, a file cp also got, a folder moved in after cp passed.
    fs.rmSync(path.join(source, 'busy/deleted-after-copy.txt'));
    fs.rmSync(path.join(source, 'busy/gone-dir'), { recursive: true });
    writeFiles(source, { 'busy/created-during-copy.txt': 'c' });
    writeFiles(target, { 'busy/created-during-copy.txt': 'c' });
    const elsewhere = tempDir('bindery-elsewhere-');
    writeFiles(elsewhere, { 'moved/a.txt': 'a', 'moved/deeper/b.txt': 'b' });
    fs.renameSync(path.join(elsewhere, 'moved'), path.join(source, 'busy/moved-in'));
    const notCopied = await reconcileWithCopy(source, target, await scanTree(source), copyStarted);
    expect(fs.existsSync(path.join(target, 'busy/deleted-after-copy.txt'))).toBe(false);
    expect(fs.existsSync(path.join(target, 'busy/gone-dir'))).toBe(false);
    expect(fs.readFileSync(path.join(target, 'busy/created-during-copy.txt'), 'utf8')).toBe('c');
    expect(fs.existsSync(path.join(target, 'quiet/stray.txt'))).toBe(true);
    expect(['busy/moved-in', 'busy/moved-in/a.txt', 'busy/moved-in/deeper/b.txt'].every(notCopied)).toBe(true);
    expect(['busy/seen.txt', 'busy/created-during-copy.txt', 'kept.txt', 'busy/moved-in-not'].some(notCopied)).toBe(false);
  });
});
