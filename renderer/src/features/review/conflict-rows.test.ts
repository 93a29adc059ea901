import { describe, expect, it } from 'vitest';
import { threeWayRows } from './conflict-rows.ts';

const lines = (n: number, prefix = 'l') => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

describe('threeWayRows', () => {
  it('keeps three lines of context around a conflict, folds the rest, and numbers each side through', () => {
    const rows = threeWayRows([
      { kind: 'same', lines: lines(10) },
      { kind: 'conflict', base: ['b'], original: ['o1', 'o2'], sandbox: [] },
      { kind: 'same', lines: lines(10, 'm') },
    ]);
    expect(rows.map((r) => r.kind)).toEqual(['fold', 'same', 'same', 'same', 'conflict', 'same', 'same', 'same', 'fold']);
    expect(rows[0]).toEqual({ kind: 'fold', count: 7 });
    expect(rows[1]).toEqual({ kind: 'same', text: 'l8', numbers: { base: 8, original: 8, sandbox: 8 } });
    expect(rows[4]).toEqual({
      kind: 'conflict',
      index: 1,
      base: [{ number: 11, text: 'b' }],
      original: [{ number: 11, text: 'o1' }, { number: 12, text: 'o2' }],
      sandbox: [],
    });
    // After the conflict each side goes on from its own count.
    expect(rows[5]).toEqual({ kind: 'same', text: 'm1', numbers: { base: 12, original: 13, sandbox: 11 } });
  });

  it('does not fold a stretch no longer than its context', () => {
    const rows = threeWayRows([
      { kind: 'conflict', base: ['b'], original: ['o'], sandbox: ['s'] },
      { kind: 'same', lines: lines(7) },
      { kind: 'conflict', base: ['b'], original: ['o'], sandbox: ['s'] },
    ]);
    expect(rows.filter((r) => r.kind === 'same')).toHaveLength(7);
  });
});
