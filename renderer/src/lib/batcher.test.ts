import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBatcher } from './batcher.ts';

// The clock is the one thing faked: bursts are defined by time.
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function setup(fetchImpl?: (keys: string[]) => Promise<string[]>) {
  const calls: string[][] = [];
  const delivered: string[][] = [];
  const batcher = createBatcher<string>({
    fetch: (keys) => {
      calls.push(keys);
      return fetchImpl ? fetchImpl(keys) : Promise.resolve(keys.map((k) => `status of ${k}`));
    },
    deliver: (values) => delivered.push(values),
    delayMs: 40,
  });
  return { batcher, calls, delivered };
}

describe('createBatcher', () => {
  it('makes one call for the keys asked within a burst', async () => {
    const { batcher, calls, delivered } = setup();
    batcher.request(['a']);
    batcher.request(['b', 'a']);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(40);
    expect(calls).toEqual([['a', 'b']]);
    expect(delivered).toEqual([['status of a', 'status of b']]);
  });

  it('does not ask again for keys in flight', async () => {
    let release: (values: string[]) => void = () => {};
    const { batcher, calls } = setup((keys) => (keys.includes('a') ? new Promise((resolve) => (release = resolve)) : Promise.resolve([])));
    batcher.request(['a']);
    await vi.advanceTimersByTimeAsync(40);
    batcher.request(['a', 'c']);
    await vi.advanceTimersByTimeAsync(40);
    expect(calls).toEqual([['a'], ['c']]);
    release(['status of a']);
  });

  it('drops answers that arrive after a reset and lets the keys be asked again', async () => {
    let release: (values: string[]) => void = () => {};
    const { batcher, calls, delivered } = setup((keys) => (calls.length === 1 ? new Promise((resolve) => (release = resolve)) : Promise.resolve(keys)));
    batcher.request(['a']);
    await vi.advanceTimersByTimeAsync(40);
    batcher.reset();
    batcher.request(['a']);
    await vi.advanceTimersByTimeAsync(40);
    release(['stale a']);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual([['a'], ['a']]);
    expect(delivered).toEqual([['a']]);
  });

  it('frees the keys of a failed call so they can be asked again', async () => {
    const { batcher, calls, delivered } = setup((keys) => (calls.length === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(keys)));
    batcher.request(['a']);
    await vi.advanceTimersByTimeAsync(40);
    batcher.request(['a']);
    await vi.advanceTimersByTimeAsync(40);
    expect(calls).toEqual([['a'], ['a']]);
    expect(delivered).toEqual([['a']]);
  });
});
