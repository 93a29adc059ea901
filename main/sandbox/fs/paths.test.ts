import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import { scanChangedSince, scanTree, type ScanEntry } from './scan.ts';
import { decodeName, displayPath, encodeName, hasEscapes, inRoot } from './paths.ts';
import { isSandboxDepth, isStrictlyInside, sandboxPathFor } from '../provision/index.ts';

describe('exact file names', () => {
  const samples: Array<[string, Buffer]> = [
    ['plain', Buffer.from('plain.txt')],
    ['utf-8', Buffer.from('grüße – 日本.txt')],
    ['emoji', Buffer.from('🙂.md')],
    ['invalid byte', Buffer.from([0x61, 0xff, 0x62])],
    ['latin-1', Buffer.from([0x63, 0x61, 0x66, 0xe9])],
    ['truncated sequence', Buffer.from([0xe2, 0x82])],
    ['overlong', Buffer.from([0xc0, 0xaf])],
    ['surrogate encoded', Buffer.from([0xed, 0xa0, 0x80])],
    ['literal U+FFFD', Buffer.from('x\uFFFDy')],
  ];
  it.each(samples)('round-trips %s', (_label, bytes) => {
    const name = decodeName(bytes);
    expect(encodeName(name).equals(bytes)).toBe(true);
    expect(JSON.parse(JSON.stringify(name))).toBe(name);
  });

  it('keeps valid names as plain strings and escapes only bad bytes', () => {
    expect(decodeName(Buffer.from('a b\nc'))).toBe('a b\nc');
    expect(decodeName(Buffer.from([0x61, 0xff]))).toBe('a\udcff');
    expect(hasEscapes('a\udcff')).toBe(true);
    expect(displayPath('a\udcff')).toBe('a\\xff');
    expect(inRoot('/r', 'x/y')).toBe(path.join('/r', 'x/y'));
    expect(inRoot('/r', 'a\udcff')).toEqual(Buffer.from([0x2f, 0x72, 0x2f, 0x61, 0xff]));
  });
});

describe('sandbox layout predicates', () => {
  it('names sandbox folders readably and safely', () => {
    expect(sandboxPathFor('/s', 'P1', 'local/my-app', '01HZZZABCDEF')).toBe('/s/P1/my-app-abcdef');
    expect(sandboxPathFor('/s', 'P1', 'x/..', '01HZZZABCDEF')).toBe('/s/P1/_-abcdef');
  });

  it.each([
    ['/root', '/root/p/s', true, true],
    ['/root', '/root/p', true, false],
    ['/root', '/root', false, false],
    ['/root', '/root/p/s/deeper', true, false],
    ['/root', '/root/../etc/p', false, false],
    ['/root', '/rootx/p/s', false, false],
    ['/root', '/root/..p/s', true, true],
    ['/root', '/root/..', false, false],
    ['/root', '/elsewhere/p/s', false, false],
  ])('under %s, %s: inside=%s, sandbox depth=%s', (root, candidate, inside, depth) => {
    expect(isStrictlyInside(root, path.normalize(candidate))).toBe(inside);
    expect(isSandboxDepth(root, path.normalize(candidate))).toBe(depth);
  });
});

describe('scanning a tree', () => {
  it('gives the same entries through find and through the portable walk', async () => {
    const root = tempDir('bindery-scan-');
    writeFiles(root, { 'a.txt': 'a', 'sub/b.txt': 'bb', 'with space/new\nline': 'c', '.git/HEAD': 'x' });
    fs.writeFileSync(Buffer.from(`${root}/bad\xff`, 'latin1'), 'odd');
    fs.symlinkSync('sub/b.txt', path.join(root, 'link'));
    fs.chmodSync(path.join(root, 'a.txt'), 0o750);
    const sorted = (entries: ScanEntry[]) => [...entries].sort((x, y) => (x.rel < y.rel ? -1 : 1)).map((e) => ({ ...e, mtimeMs: Math.round(e.mtimeMs), ctimeMs: Math.round(e.ctimeMs) }));
    const fast = sorted(await scanTree(root, { skipTopGit: true }));
    const portable = sorted(await scanTree(root, { skipTopGit: true, portable: true }));
    expect(fast).toEqual(portable);
    expect(fast.map((e) => `${e.kind} ${e.rel}`)).toEqual(['file a.txt', 'file bad\udcff', 'symlink link', 'dir sub', 'file sub/b.txt', 'dir with space', 'file with space/new\nline']);
    expect(fast.find((e) => e.rel === 'a.txt')).toMatchObject({ mode: 0o750, size: 1 });
    expect(fast.find((e) => e.rel === 'link')).toMatchObject({ target: 'sub/b.txt' });
  });
});

describe('scanning a tree whose size was guessed', () => {
  it('lists everything when the tree is bigger than guessed (the in-process walk gives up and find takes over)', async () => {
    const root = tempDir('bindery-scan-guess-');
    writeFiles(root, Object.fromEntries(Array.from({ length: 3200 }, (_, i) => [`d${i % 8}/f${i}.txt`, ''])));
    const guessedSmall = await scanTree(root, { expected: 10 });
    expect(guessedSmall).toHaveLength(3208);
    expect(new Set(guessedSmall.map((e) => e.rel))).toEqual(new Set((await scanTree(root)).map((e) => e.rel)));
  });
});

describe('scanning for entries changed since a moment', () => {
  it('finds the same entries in-process, through one find and through parallel finds', async () => {
    const root = tempDir('bindery-scan-since-');
    const files: Record<string, string> = { '.git/HEAD': 'x', 'top.txt': 't', '-dash/a.txt': 'a' };
    for (let i = 0; i < 40; i++) files[`d${i % 4}/s${i % 3}/f${i}.txt`] = `${i}`;
    writeFiles(root, files);
    fs.writeFileSync(Buffer.from(`${root}/d1/bad\xff`, 'latin1'), 'odd');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    for (const rel of Object.keys(files)) fs.utimesSync(path.join(root, rel), anHourAgo, anHourAgo);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const since = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    fs.appendFileSync(path.join(root, 'd1/s2/f5.txt'), 'changed');
    fs.writeFileSync(path.join(root, '-dash/new.txt'), 'new');
    fs.chmodSync(path.join(root, 'top.txt'), 0o600);
    fs.writeFileSync(path.join(root, '.git/index'), 'ignored: inside the top-level .git');
    const rels = (entries: ScanEntry[] | null) => (entries ?? []).map((e) => e.rel).sort();
    const expected = ['-dash', '-dash/new.txt', 'top.txt'];
    const inProcess = await scanChangedSince(root, since, { skipTopGit: true, expected: 10 });
    const oneFind = await scanChangedSince(root, since, { skipTopGit: true, expected: 5_000 });
    const parallel = await scanChangedSince(root, since, { skipTopGit: true, expected: 50_000, weigh: (name) => (name.startsWith('d') ? 10 : 1) });
    // Appending changes the file only; creating a file changes its folder too.
    expect(rels(inProcess)).toEqual([...expected, 'd1/s2/f5.txt'].sort());
    if (process.platform === 'linux') {
      expect(rels(oneFind)).toEqual(rels(inProcess));
      expect(rels(parallel)).toEqual(rels(inProcess));
      expect(parallel?.find((e) => e.rel === 'top.txt')).toMatchObject({ kind: 'file', mode: 0o600, size: 1 });
    }
  });
});
