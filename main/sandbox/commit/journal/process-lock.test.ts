import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withLocks } from './process-lock.ts';
import { tempDir } from './testing/test-support.ts';
import { tsxEvalArgs } from '../../../testing/child-process.ts';

const MODULE = path.join(import.meta.dirname, 'process-lock.ts');

/**
 * A child process that takes the lock of `key` in `dir`, prints "held", and keeps it until killed;
 * its work waits on a promise nothing settles, and it collects its garbage before "held".
 */
function holder(dir: string, key: string): Promise<ReturnType<typeof spawn>> {
  const script = `const { withLocks } = await import(${JSON.stringify(MODULE)});
await withLocks(${JSON.stringify(dir)}, [{ key: ${JSON.stringify(key)}, label: 'committing to ${key}' }], () => {
  setInterval(() => {}, 1000);
  setTimeout(() => { gc(); gc(); process.stdout.write('held\\n'); }, 10);
  return new Promise(() => {});
});`;
  const child = spawn(process.execPath, ['--expose-gc', ...tsxEvalArgs(script)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => chunk.includes('held') && resolve(child));
  });
}

describe('locks across processes', () => {
  it('keep a second process out while held (even when the holder\'s work is unreachable and collected), say who holds them, and free at once when the holder is SIGKILLed', async () => {
    const dir = tempDir();
    const child = await holder(dir, '/data/app');
    await expect(withLocks(dir, [{ key: '/data/app', label: 'x' }], async () => 'in', 300)).rejects.toThrow(
      new RegExp(`Another Bindery process \\(pid ${child.pid} .*\\) is committing to /data/app; this waited 0 s for it\\. Nothing was changed: try again when it finishes\\.`),
    );
    // Another key is free meanwhile.
    expect(await withLocks(dir, [{ key: '/data/other', label: 'x' }], async () => 'other', 300)).toBe('other');
    const waiting = withLocks(dir, [{ key: '/data/app', label: 'x' }], async () => 'taken over', 20_000);
    child.kill('SIGKILL');
    expect(await waiting).toBe('taken over');
  }, 30_000);

  it('order work on one key within a process, and let work that holds a key take it again', async () => {
    const dir = tempDir();
    const order: string[] = [];
    const key = [{ key: '/k', label: 'x' }];
    const first = withLocks(dir, key, async () => {
      order.push('first start');
      // Taken again inside: no wait for itself.
      await withLocks(dir, key, async () => order.push('nested'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('first end');
    });
    const second = withLocks(dir, key, async () => order.push('second'));
    await Promise.all([first, second]);
    expect(order).toEqual(['first start', 'nested', 'first end', 'second']);
  });

  it('are not held by a task the holder started that runs after it released them', async () => {
    const dir = tempDir();
    const order: string[] = [];
    const key = [{ key: '/k', label: 'x' }];
    let late: Promise<unknown> = Promise.resolve();
    await withLocks(dir, key, async () => {
      // Started inside, runs once the key is released (a timer, a listener's follow-up).
      late = new Promise((resolve) => setTimeout(resolve, 30)).then(() => withLocks(dir, key, async () => order.push('late')));
    });
    const other = withLocks(dir, key, async () => {
      order.push('other start');
      await new Promise((resolve) => setTimeout(resolve, 200));
      order.push('other end');
    });
    await Promise.all([late, other]);
    expect(order).toEqual(['other start', 'other end', 'late']);
  });

  it('stop waiting at once when cancelled, in this process and across processes', async () => {
    const dir = tempDir();
    const child = await holder(dir, '/data/app');
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const began = Date.now();
      await expect(withLocks(dir, [{ key: '/data/app', label: 'x' }], async () => 'in', 20_000, controller.signal)).rejects.toThrow(/cancelled while waiting.*nothing was changed/i);
      expect(Date.now() - began).toBeLessThan(5_000);
      // Queued behind work of this process.
      let release: () => void = () => undefined;
      const first = withLocks(dir, [{ key: '/data/mine', label: 'x' }], () => new Promise<void>((resolve) => (release = resolve)));
      const queued = new AbortController();
      const second = withLocks(dir, [{ key: '/data/mine', label: 'x' }], async () => 'second ran', 20_000, queued.signal);
      queued.abort();
      await expect(second).rejects.toThrow(/cancelled/i);
      release();
      await first;
      expect(await withLocks(dir, [{ key: '/data/mine', label: 'x' }], async () => 'free')).toBe('free');
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
