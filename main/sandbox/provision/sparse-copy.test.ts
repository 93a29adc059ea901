/** Sparse files keep their holes: in the commit's copies into the original and in provisioning copies. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../testing/fixtures.ts';
import { copyTree } from './copy-tree.ts';
import { copySparseFile, hasHoles } from './sparse-copy.ts';
import { newManager } from '../../testing/sandbox/harness.ts';

const SIZE = 16 * 1024 * 1024;

/** A file of SIZE bytes made with truncate, with a few bytes written at `at` (a hole before and after). */
function makeSparse(file: string, at = 3 * 1024 * 1024 + 7): void {
  fs.writeFileSync(file, '');
  fs.truncateSync(file, SIZE);
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, 'written between holes', at);
  fs.closeSync(fd);
}

/** Asserts `file` has SIZE bytes, the same as `like`, and takes less than 1% of them on disk. */
function expectSparseCopy(file: string, like: string): void {
  const stat = fs.statSync(file);
  expect(stat.size).toBe(SIZE);
  expect(stat.blocks * 512).toBeLessThan(SIZE / 100);
  expect(fs.readFileSync(file).equals(fs.readFileSync(like))).toBe(true);
}

describe('sparse files', () => {
  it('are committed with their holes: the original does not get the zeros written out', async () => {
    const { manager, plan } = newManager();
    const original = tempDir('bindery-orig-');
    writeFiles(original, { 'a.txt': 'a\n' });
    const sandbox = await manager.getOrCreateSandbox({ planId: plan(), resourceId: 'R1', originalPath: original, sandboxStrategy: 'copy_on_write' });
    makeSparse(path.join(sandbox.path, 'disk.img'));
    expect(await manager.commit(sandbox.id)).toMatchObject({ kind: 'committed', commit: { written: ['disk.img'] } });
    expectSparseCopy(path.join(original, 'disk.img'), path.join(sandbox.path, 'disk.img'));
  });

  it('keep their holes when a sandbox is provisioned, by cp and by the file-by-file copy', async () => {
    const plain = tempDir('bindery-copy-src-');
    makeSparse(path.join(plain, 'disk.img'));
    // A top-level name that is not UTF-8 cannot be given to cp: that tree is copied file by file.
    const odd = tempDir('bindery-copy-src-');
    makeSparse(path.join(odd, 'disk.img'));
    fs.writeFileSync(Buffer.concat([Buffer.from(`${odd}/`), Buffer.from([0x66, 0xff])]), 'x');
    for (const source of [plain, odd]) {
      const target = path.join(tempDir('bindery-copy-dst-'), 'copy');
      const result = await copyTree(source, target);
      expect(result.entries.map((e) => e.path)).toContain('disk.img');
      expectSparseCopy(path.join(target, 'disk.img'), path.join(source, 'disk.img'));
    }
  });

  it('copySparseFile keeps holes, a tail of data, the mode and the mtime', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'src');
    makeSparse(source, SIZE - 'written between holes'.length);
    fs.chmodSync(source, 0o640);
    expect(hasHoles(fs.statSync(source))).toBe(true);
    await copySparseFile(source, path.join(dir, 'copy'), 1_000_000);
    expectSparseCopy(path.join(dir, 'copy'), source);
    expect(fs.statSync(path.join(dir, 'copy'))).toMatchObject({ mode: 0o100640, mtimeMs: 1_000_000_000 });
    fs.writeFileSync(path.join(dir, 'dense'), Buffer.alloc(256 * 1024, 1));
    expect(hasHoles(fs.statSync(path.join(dir, 'dense')))).toBe(false);
  });

  it('copySparseFile refuses a FIFO or a symlink that took the file\'s name, instead of waiting on or following it', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    await expect(copySparseFile(path.join(dir, 'fifo'), path.join(dir, 'copy'), 1)).rejects.toThrow(/no longer a regular file/);
    makeSparse(path.join(dir, 'real'));
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'link'));
    await expect(copySparseFile(path.join(dir, 'link'), path.join(dir, 'copy'), 1)).rejects.toThrow(/no longer a regular file/);
    expect(fs.existsSync(path.join(dir, 'copy'))).toBe(false);
  }, 10_000);
});
