import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { loadOrCreateToken, TOKEN_FILE_NAME } from './token-file.ts';

const posix = process.platform !== 'win32';

describe('loadOrCreateToken', () => {
  it('creates a private token file once and reuses it, leaving no temporary files', () => {
    const dir = tempDir();
    const first = loadOrCreateToken(dir);
    expect(first.outcome).toBe('created');
    expect(first.file).toBe(path.join(dir, TOKEN_FILE_NAME));
    expect(first.token).toMatch(/^[\w-]{43}$/);
    if (posix) expect(fs.statSync(first.file).mode & 0o777).toBe(0o600);
    const second = loadOrCreateToken(dir);
    expect(second).toMatchObject({ outcome: 'reused', token: first.token });
    expect(fs.readdirSync(dir)).toEqual([TOKEN_FILE_NAME]);
  });

  it('stays private under a permissive umask', () => {
    const dir = tempDir();
    const old = process.umask(0);
    try {
      const kept = loadOrCreateToken(dir);
      if (posix) expect(fs.statSync(kept.file).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(old);
    }
  });

  it.skipIf(!posix)('replaces a token others could read, a symbolic link and a file that holds no token', () => {
    const dir = tempDir();
    const file = path.join(dir, TOKEN_FILE_NAME);
    const leaked = loadOrCreateToken(dir);
    fs.chmodSync(file, 0o644);
    const replaced = loadOrCreateToken(dir);
    expect(replaced).toMatchObject({ outcome: 'replaced', reason: 'other users could read it' });
    expect(replaced.token).not.toBe(leaked.token);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const elsewhere = path.join(tempDir(), 'planted');
    fs.writeFileSync(elsewhere, `${'a'.repeat(43)}\n`, { mode: 0o600 });
    fs.rmSync(file);
    fs.symlinkSync(elsewhere, file);
    const unlinked = loadOrCreateToken(dir);
    expect(unlinked).toMatchObject({ outcome: 'replaced', reason: 'it was a symbolic link' });
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe(`${'a'.repeat(43)}\n`);

    fs.writeFileSync(file, 'not a token\n', { mode: 0o600 });
    expect(loadOrCreateToken(dir)).toMatchObject({ outcome: 'replaced', reason: 'it did not hold a token' });
  });
});
