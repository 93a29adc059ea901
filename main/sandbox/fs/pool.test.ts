import { describe, expect, it } from 'vitest';
import { balance, forEachLimit, STOP } from './pool.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('forEachLimit', () => {
  it('runs every item with at most `limit` in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    const stopped = await forEachLimit([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      peak = Math.max(peak, ++inFlight);
      await tick();
      seen.push(item);
      inFlight--;
    });
    expect(stopped).toBe(false);
    expect(peak).toBe(3);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('starts nothing new after STOP but lets started items finish', async () => {
    const finished: number[] = [];
    const stopped = await forEachLimit([0, 1, 2, 3, 4, 5], 2, async (item) => {
      await tick();
      finished.push(item);
      return item === 0 ? STOP : undefined;
    });
    expect(stopped).toBe(true);
    expect(finished.sort()).toEqual([0, 1]);
  });

  it('rethrows the first error once in-flight items are done', async () => {
    const finished: number[] = [];
    const run = forEachLimit([0, 1, 2, 3], 2, async (item) => {
      if (item === 0) throw new Error('first');
      await tick();
      finished.push(item);
    });
    await expect(run).rejects.toThrow('first');
    expect(finished).toEqual([1]);
  });

  it('gives each item its index', async () => {
    const seen: string[] = [];
    await forEachLimit(['a', 'b', 'c'], 2, async (item, index) => {
      seen[index] = item;
    });
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('handles an empty list', async () => {
    expect(await forEachLimit([], 4, async () => undefined)).toBe(false);
  });
});

describe('balance', () => {
  it('puts the heaviest units first, each onto the lightest group', () => {
    const units = [
      { name: 'a', weight: 1 },
      { name: 'b', weight: 5 },
      { name: 'c', weight: 3 },
      { name: 'd', weight: 3 },
      { name: 'e', weight: 2 },
    ];
    expect(balance(units, 2)).toEqual([['b', 'e'], ['c', 'd', 'a']]);
  });

  it('makes no more groups than units, and leaves its input in order', () => {
    const units = [
      { name: 'x', weight: 1 },
      { name: 'y', weight: 2 },
    ];
    expect(balance(units, 4)).toEqual([['y'], ['x']]);
    expect(units.map((u) => u.name)).toEqual(['x', 'y']);
    expect(balance([], 3)).toEqual([]);
  });
});
