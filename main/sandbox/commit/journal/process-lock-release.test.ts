/**
 * Every way a lock ends gives its connection back: the module-level set that keeps held
 * connections from the garbage collector (process-lock.ts) must not keep released ones, or a
 * long-lived process (the app, `serve`) would leak a file descriptor per commit.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openLockCount, withLocks } from './process-lock.ts';
import { tempDir } from './testing/test-support.ts';

/** Open file descriptors of this process (Linux; elsewhere the set's size alone is checked). */
function openFds(): number | null {
  try {
    return fs.readdirSync('/proc/self/fd').length;
  } catch {
    return null;
  }
}

describe('lock release', () => {
  it('leaves no connection open after 1,000 locks taken and released, whether the work succeeds or fails', async () => {
    const dir = tempDir();
    // One warm-up, so SQLite's and the folder's one-time descriptors are not counted as a leak.
    await withLocks(dir, [{ key: '/warm', label: 'x' }], async () => undefined);
    const before = openFds();
    for (let i = 0; i < 1000; i += 1) {
      const keys = [{ key: `/data/${i % 7}`, label: 'x' }];
      if (i % 3 === 0) await expect(withLocks(dir, keys, async () => { throw new Error('work failed'); })).rejects.toThrow('work failed');
      else expect(await withLocks(dir, keys, async () => openLockCount())).toBe(1);
    }
    // Many at once over a few keys: queued, taken in turn, all given back.
    await Promise.all(Array.from({ length: 100 }, (_, i) => withLocks(dir, [{ key: `/data/${i % 5}`, label: 'x' }], async () => i)));
    expect(openLockCount()).toBe(0);
    const after = openFds();
    if (before !== null && after !== null) expect(after).toBeLessThanOrEqual(before);
  }, 120_000);

  it('gives the connection back when cancelled in the moment it took the lock from another holder', async () => {
    const dir = tempDir();
    await withLocks(dir, [{ key: '/k', label: 'x' }], async () => undefined);
    // Another holder, as another process would be: a connection of its own with the exclusive transaction.
    const other = new Database(path.join(dir, `${createHash('sha256').update('/k').digest('hex').slice(0, 32)}.lock`), { timeout: 0 });
    other.exec('BEGIN EXCLUSIVE');
    const controller = new AbortController();
    const waiting = withLocks(dir, [{ key: '/k', label: 'x' }], async () => 'ran', 5000, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Freed and cancelled together: the next poll takes the lock, then sees the cancel before the work.
    other.exec('ROLLBACK');
    other.close();
    controller.abort();
    await expect(waiting).rejects.toThrow(/Cancelled/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(openLockCount()).toBe(0);
    expect(await withLocks(dir, [{ key: '/k', label: 'x' }], async () => openLockCount(), 1000)).toBe(1);
  });

  it('gives the connection back when cancelled while queued behind this process\'s own work', async () => {
    const dir = tempDir();
    let free!: () => void;
    const first = withLocks(dir, [{ key: '/q', label: 'x' }], () => new Promise<void>((resolve) => (free = resolve)));
    const controller = new AbortController();
    const second = withLocks(dir, [{ key: '/q', label: 'x' }], async () => 'ran', 1000, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await expect(second).rejects.toThrow(/Cancelled/);
    expect(openLockCount()).toBe(1);
    free();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(openLockCount()).toBe(0);
  });
});
