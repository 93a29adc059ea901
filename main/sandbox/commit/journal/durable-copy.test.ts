import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cloneHintFor, settleCopy, writeCopy, type CloneHint } from './durable-copy.ts';
import { hashFile } from './read-regular.ts';
import { asOrdinaryUser, readTree, swappedAfterCheck, tempDir } from './testing/test-support.ts';

/**
 * A folder on a filesystem that clones (XFS with reflink, btrfs): `.ci/run` mounts one when the
 * machine allows loop devices. Without it the clone path is skipped, with the reason printed.
 */
const REFLINK_DIR = process.env.BINDERY_TEST_REFLINK_DIR;
if (!REFLINK_DIR) console.log('durable-copy.test: BINDERY_TEST_REFLINK_DIR is not set, so the clone path is not tested here.');

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Whether the kernel clones from `dir` to itself: decided the plain way, to check writeCopy against. */
function clonesIn(dir: string): boolean {
  fs.writeFileSync(path.join(dir, 'probe-src'), 'probe');
  try {
    fs.copyFileSync(path.join(dir, 'probe-src'), path.join(dir, 'probe-dst'), fs.constants.COPYFILE_FICLONE_FORCE);
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(path.join(dir, 'probe-src'), { force: true });
    fs.rmSync(path.join(dir, 'probe-dst'), { force: true });
  }
}

/** Copies a small, an executable and a large file (above the in-memory size) with one hint, and checks each copy. */
async function copyThree(dir: string): Promise<CloneHint> {
  const large = Buffer.alloc(300 * 1024, 3);
  large.write('large', 5000);
  const sources = { small: Buffer.from('small file'), script: Buffer.from('#!/bin/sh\n'), large };
  for (const [name, bytes] of Object.entries(sources)) fs.writeFileSync(path.join(dir, name), bytes);
  fs.chmodSync(path.join(dir, 'script'), 0o750);
  const hint: CloneHint = { tryClone: true };
  for (const [name, bytes] of Object.entries(sources)) {
    const mode = name === 'script' ? 0o750 : 0o644;
    const copy = path.join(dir, `${name}.copy`);
    expect(await writeCopy(path.join(dir, name), copy, mode, undefined, hint)).toBe(sha256(bytes));
    expect(fs.readFileSync(copy).equals(bytes)).toBe(true);
    // Its owner can read it with this mode, so it has it at once, before it is flushed.
    expect(fs.statSync(copy).mode & 0o7777).toBe(mode);
    await settleCopy(copy, mode);
    expect(fs.statSync(copy).mode & 0o7777).toBe(mode);
  }
  return hint;
}

describe('writeCopy', () => {
  it('copies exactly, with the mode asked for, and stops trying to clone where the filesystem cannot', async () => {
    const dir = tempDir();
    const clones = clonesIn(dir);
    expect((await copyThree(dir)).tryClone).toBe(clones);
  });

  it('refuses to replace an existing file, cloning or not', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'src'), 'new');
    fs.writeFileSync(path.join(dir, 'dst'), 'someone else');
    for (const tryClone of [true, false]) {
      await expect(writeCopy(path.join(dir, 'src'), path.join(dir, 'dst'), 0o644, undefined, { tryClone })).rejects.toMatchObject({ code: 'EEXIST' });
      expect(fs.readFileSync(path.join(dir, 'dst'), 'utf8')).toBe('someone else');
    }
  });

  it('refuses a source that is a FIFO at once instead of waiting on it, cloning or not', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    for (const tryClone of [true, false]) {
      await expect(writeCopy(path.join(dir, 'fifo'), path.join(dir, `dst-${tryClone}`), 0o644, undefined, { tryClone })).rejects.toThrow(/no longer a regular file/);
      expect(fs.existsSync(path.join(dir, `dst-${tryClone}`))).toBe(false);
    }
  });

  it('ends the copy of a large file that shrinks meanwhile at its new end, and hashes what it copied', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'large');
    fs.writeFileSync(source, Buffer.alloc(8 * 1024 * 1024, 5));
    const copying = writeCopy(source, path.join(dir, 'copy'), 0o644);
    fs.truncateSync(source, 4096); // the copy has opened the file; a copy by length would wait for bytes that never come
    const sha = await copying;
    const copied = fs.readFileSync(path.join(dir, 'copy'));
    expect(copied.length).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(sha).toBe(sha256(copied));
  });

  it('keeps the holes of a sparse file instead of writing its zeros, and hashes every byte', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'sparse');
    const size = 16 * 1024 * 1024;
    // Data in the middle and a hole at the end, as a tool that seeks and writes leaves it.
    fs.writeFileSync(source, '');
    fs.truncateSync(source, size);
    const fd = fs.openSync(source, 'r+');
    fs.writeSync(fd, 'data in the middle', 5 * 1024 * 1024 + 100);
    fs.closeSync(fd);
    expect(fs.statSync(source).blocks * 512).toBeLessThan(size / 100);
    const copy = path.join(dir, 'copy');
    const sha = await writeCopy(source, copy, 0o644);
    await settleCopy(copy, 0o644);
    const copied = fs.statSync(copy);
    expect(copied.size).toBe(size);
    expect(copied.blocks * 512).toBeLessThan(size / 100);
    const bytes = fs.readFileSync(copy);
    expect(bytes.equals(fs.readFileSync(source))).toBe(true);
    expect(sha).toBe(sha256(bytes));
  });

  it('writes every block of a file without holes, zeros included (only a sparse source is copied sparse)', async () => {
    const dir = tempDir();
    const size = 4 * 1024 * 1024;
    fs.writeFileSync(path.join(dir, 'zeros'), Buffer.alloc(size));
    await writeCopy(path.join(dir, 'zeros'), path.join(dir, 'copy'), 0o644);
    expect(fs.statSync(path.join(dir, 'copy')).blocks * 512).toBeGreaterThanOrEqual(size);
  });

  it('takes the vouched hash only for the stat of the very file it read', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'src'), 'content');
    const ino = fs.statSync(path.join(dir, 'src'), { bigint: true }).ino;
    const seen: bigint[] = [];
    const sha = await writeCopy(path.join(dir, 'src'), path.join(dir, 'dst'), 0o644, (copiedFrom) => {
      seen.push(copiedFrom.ino);
      return 'vouched';
    });
    expect(seen).toEqual([ino]);
    expect(sha).toBe('vouched');
    expect(await writeCopy(path.join(dir, 'src'), path.join(dir, 'dst2'), 0o644, () => null)).toBe(sha256(Buffer.from('content')));
  });

  it('gives a copy a mode that lets its owner write but not read, and flushes it all the same', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'src'), 'drop box');
    await asOrdinaryUser(dir, async () => {
      await writeCopy(path.join(dir, 'src'), path.join(dir, 'dst'), 0o200);
      await settleCopy(path.join(dir, 'dst'), 0o200);
    });
    expect(fs.statSync(path.join(dir, 'dst')).mode & 0o7777).toBe(0o200);
    expect(fs.readFileSync(path.join(dir, 'dst'), 'utf8')).toBe('drop box');
  });

  it('keeps setuid and setgid bits, which writing the copy clears for anyone but root', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'src'), Buffer.alloc(1000, 1));
    const modes = [0o4755, 0o2775, 0o6775];
    await asOrdinaryUser(dir, async () => {
      for (const mode of modes) {
        for (const tryClone of [false, true]) {
          const copy = path.join(dir, `${mode.toString(8)}-${tryClone}`);
          await writeCopy(path.join(dir, 'src'), copy, mode, undefined, { tryClone });
          await settleCopy(copy, mode);
        }
      }
    });
    for (const mode of modes) for (const tryClone of [false, true]) expect(fs.statSync(path.join(dir, `${mode.toString(8)}-${tryClone}`)).mode & 0o7777).toBe(mode);
  });

  it('remembers a folder whose filesystem cannot clone', async () => {
    const dir = tempDir();
    const clones = clonesIn(dir);
    fs.writeFileSync(path.join(dir, 'src'), 'content');
    const first = cloneHintFor(dir);
    await writeCopy(path.join(dir, 'src'), path.join(dir, 'a'), 0o644, undefined, first);
    expect([first.tryClone, cloneHintFor(dir).tryClone]).toEqual([clones, clones]);
  });

  it.skipIf(!fs.existsSync('/dev/shm'))('remembers a folder whose sources are on another filesystem, and only that folder', async () => {
    const other = fs.mkdtempSync('/dev/shm/bindery-clone-');
    try {
      fs.writeFileSync(path.join(other, 'src'), 'elsewhere');
      const target = tempDir();
      const hint = cloneHintFor(target);
      await writeCopy(path.join(other, 'src'), path.join(target, 'b'), 0o644, undefined, hint);
      // Every commit to it would create a file, fail to clone into it and remove it again.
      expect([hint.tryClone, cloneHintFor(target).tryClone, cloneHintFor(tempDir()).tryClone]).toEqual([false, false, true]);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it.skipIf(!REFLINK_DIR)('clones on a filesystem that can, and keeps cloning', async () => {
    const dir = fs.mkdtempSync(path.join(REFLINK_DIR!, 'bindery-clone-'));
    try {
      expect(clonesIn(dir)).toBe(true);
      expect((await copyThree(dir)).tryClone).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reading a new version', () => {
  it('never follows a symlink swapped in after the check: the file it names stays out of the original', async () => {
    const secret = path.join(tempDir(), 'id_rsa');
    fs.writeFileSync(secret, 'PRIVATE KEY');
    const { target, commit } = swappedAfterCheck((source) => fs.symlinkSync(secret, source));
    await expect(commit()).rejects.toThrow(/no longer a regular file/);
    expect(readTree(target)).toEqual({ 'a.txt': 'old a' });
  });

  it('refuses a symlink given as the file to copy or hash', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'real'), 'real');
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'link'));
    await expect(writeCopy(path.join(dir, 'link'), path.join(dir, 'copy'), 0o644)).rejects.toThrow(/no longer a regular file/);
    expect(fs.existsSync(path.join(dir, 'copy'))).toBe(false);
    await expect(hashFile(path.join(dir, 'link'))).rejects.toThrow(/no longer a regular file/);
  });
});
