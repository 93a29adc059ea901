import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../testing/fixtures.ts';
import { copyTree, dropWhatVanished } from './copy-tree.ts';
import { RACY_WINDOW_MS } from './manifest.ts';
import { scanTree } from './scan.ts';

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

  it('removes from the copy what the scan never saw and the original no longer has, in folders changed during the copy only', async () => {
    const source = tempDir('bindery-copy-src-');
    writeFiles(source, { 'kept.txt': 'k', 'busy/seen.txt': 's', 'quiet/seen.txt': 'q' });
    const listing = await scanTree(source);
    const target = tempDir('bindery-copy-dst-');
    writeFiles(target, {
      'kept.txt': 'k',
      'busy/seen.txt': 's',
      'busy/deleted-after-copy.txt': 'gone from the original',
      'busy/gone-dir/x.txt': 'gone with its folder',
      'busy/created-during-copy.txt': 'the original has it',
      'quiet/seen.txt': 'q',
      'quiet/not-scanned.txt': 'its folder did not change, so it is not looked at',
    });
    writeFiles(source, { 'busy/created-during-copy.txt': 'the original has it' });
    // As if `quiet` had last changed long before the copy and `busy` during it.
    const seen = listing.map((entry) => (entry.rel === 'quiet' ? { ...entry, ctimeMs: AN_HOUR_AGO.getTime() } : entry));
    await dropWhatVanished(source, target, seen, Date.now() - 60_000);
    expect(fs.existsSync(path.join(target, 'busy/deleted-after-copy.txt'))).toBe(false);
    expect(fs.existsSync(path.join(target, 'busy/gone-dir'))).toBe(false);
    expect(fs.readFileSync(path.join(target, 'busy/created-during-copy.txt'), 'utf8')).toBe('the original has it');
    expect(fs.existsSync(path.join(target, 'busy/seen.txt'))).toBe(true);
    expect(fs.existsSync(path.join(target, 'kept.txt'))).toBe(true);
    expect(fs.existsSync(path.join(target, 'quiet/not-scanned.txt'))).toBe(true);
  });
});
