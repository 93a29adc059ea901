import { describe, expect, it } from 'vitest';
import { git, gitRepo } from '../../testing/fixtures.ts';
import { readBlobs } from './git-candidates.ts';

describe('readBlobs', () => {
  it('keeps blobs up to the limit, lets bigger ones and missing ids pass, and keeps bytes exact', async () => {
    const big = 'x'.repeat(300_000);
    const multiChunk = Buffer.alloc(200_000, 'line\n').toString();
    const repo = gitRepo({ 'small.txt': 'small\n', 'empty.txt': '', 'big.txt': big, 'multi.txt': multiChunk, 'no-newline.bin': '\0\x01\n\n' });
    const id = (rel: string): string => git(repo, 'rev-parse', `HEAD:${rel}`).trim();
    const missing = '0123456789abcdef0123456789abcdef01234567';
    const ids = [id('big.txt'), id('small.txt'), missing, id('empty.txt'), id('multi.txt'), id('no-newline.bin'), id('small.txt')];
    const blobs = await readBlobs(repo, ids, 250_000);
    expect(blobs.get(id('small.txt'))?.toString()).toBe('small\n');
    expect(blobs.get(id('empty.txt'))?.length).toBe(0);
    expect(blobs.get(id('multi.txt'))?.toString()).toBe(multiChunk);
    expect(blobs.get(id('no-newline.bin'))?.toString()).toBe('\0\x01\n\n');
    expect(blobs.has(id('big.txt'))).toBe(false);
    expect(blobs.has(missing)).toBe(false);
    expect(blobs.size).toBe(4);
  });

  it('reads nothing for no ids', async () => {
    expect((await readBlobs(gitRepo(), [], 100)).size).toBe(0);
  });
});
