import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { readEntry, readEntryOrWhy, readSmallEntry, sha256RegularSync } from './content.ts';

const posix = process.platform !== 'win32';

describe.skipIf(!posix)('reading what is at a path', () => {
  it('names special files by kind from their lstat and never opens one (a FIFO would block)', async () => {
    const dir = tempDir();
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const socket = path.join(dir, 'sock');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      expect(await readEntry(fifo)).toEqual({ type: 'other', special: 'FIFO' });
      expect(readSmallEntry(fifo)).toEqual({ type: 'other', special: 'FIFO' });
      expect(await readEntryOrWhy(fifo)).toEqual({ type: 'other', special: 'FIFO' });
      expect(await readEntry(socket)).toEqual({ type: 'other', special: 'socket' });
      expect(await readEntry('/dev/null')).toEqual({ type: 'other', special: 'character device' });
      // A folder is `other` too, but no special file.
      expect(await readEntry(dir)).toEqual({ type: 'other' });
      // Opened without waiting and checked with fstat: what a racy hash meets if a FIFO took a file's place.
      expect(sha256RegularSync(fifo)).toBeNull();
      expect(sha256RegularSync(socket)).toBeNull();
    } finally {
      server.close();
    }
  });

  it('reads files small, held and streamed through one descriptor, and symlinks without following them', async () => {
    const dir = tempDir();
    const sizes = { small: 10, held: 1024 * 1024, streamed: 3 * 1024 * 1024 };
    for (const [name, size] of Object.entries(sizes)) {
      const bytes = randomBytes(size);
      fs.writeFileSync(path.join(dir, name), bytes);
      const entry = await readEntry(path.join(dir, name));
      expect(entry).toMatchObject({ type: 'file', size });
      expect(entry.type === 'file' && entry.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(sha256RegularSync(path.join(dir, name))).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
    fs.symlinkSync('pipe-that-is-not-there', path.join(dir, 'link'));
    const link = await readEntry(path.join(dir, 'link'));
    expect(link).toMatchObject({ type: 'symlink' });
    expect(link.type === 'symlink' && link.data?.toString()).toBe('pipe-that-is-not-there');
    expect(sha256RegularSync(path.join(dir, 'link'))).toBeNull();
    expect(await readEntry(path.join(dir, 'missing'))).toEqual({ type: null });
  });
});
