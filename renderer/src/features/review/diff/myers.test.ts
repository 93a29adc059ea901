import { diffArrays } from 'diff';
import { describe, expect, it } from 'vitest';
import { editLowerBound, myersDiff, type EditRun } from './myers.ts';
import { seededRandom } from './test-texts.ts';

/** Applies a script to `a`, taking added items from `b`: must give `b` back. */
function apply(a: number[], b: number[], script: EditRun[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  for (const run of script) {
    if (run.kind === 'eq') {
      for (let n = 0; n < run.count; n++) {
        expect(a[i]).toBe(b[j]);
        out.push(a[i++] as number);
        j++;
      }
    } else if (run.kind === 'del') i += run.count;
    else for (let n = 0; n < run.count; n++) out.push(b[j++] as number);
  }
  expect(i).toBe(a.length);
  return out;
}

const edits = (script: EditRun[]) => script.filter((r) => r.kind !== 'eq').reduce((n, r) => n + r.count, 0);

describe('myersDiff', () => {
  it('handles empty and equal inputs', () => {
    expect(myersDiff([], [], 10)).toEqual([]);
    expect(myersDiff([1, 2], [1, 2], 0)).toEqual([{ kind: 'eq', count: 2 }]);
    expect(myersDiff([], [1, 2], 10)).toEqual([{ kind: 'add', count: 2 }]);
    expect(myersDiff([1, 2], [], 10)).toEqual([{ kind: 'del', count: 2 }]);
  });

  it('puts a deletion before the addition that replaces it', () => {
    expect(myersDiff([1, 2, 3], [1, 4, 3], 10)).toEqual([
      { kind: 'eq', count: 1 },
      { kind: 'del', count: 1 },
      { kind: 'add', count: 1 },
      { kind: 'eq', count: 1 },
    ]);
  });

  it('gives up above maxEdits and succeeds at exactly the needed number', () => {
    expect(myersDiff([1, 2, 3, 4], [4, 3, 2, 1], 5)).toBeNull();
    expect(edits(myersDiff([1, 2, 3, 4], [4, 3, 2, 1], 6) ?? [])).toBe(6);
  });

  it('answers sides with nothing in common at once, whatever the bound', () => {
    expect(myersDiff([1, 2, 3], [4, 5], 0)).toEqual([
      { kind: 'del', count: 3 },
      { kind: 'add', count: 2 },
    ]);
  });

  it('bounds the edits from below by the items the sides do not share', () => {
    expect(editLowerBound([1, 2, 3], [3, 2, 1])).toBe(0);
    expect(editLowerBound([1, 1, 2], [1, 3])).toBe(3);
    expect(editLowerBound([], [5, 5])).toBe(2);
  });

  it('is a correct and minimal script (as short as jsdiff) for 500 random pairs', () => {
    const random = seededRandom(1986);
    for (let trial = 0; trial < 500; trial++) {
      const size = () => Math.floor(random() * 40);
      const alphabet = 2 + Math.floor(random() * 6);
      const a = Array.from({ length: size() }, () => Math.floor(random() * alphabet));
      const b = Array.from({ length: size() }, () => Math.floor(random() * alphabet));
      const script = myersDiff(a, b, a.length + b.length);
      expect(script).not.toBeNull();
      expect(apply(a, b, script ?? [])).toEqual(b);
      const reference = diffArrays(a, b)
        .filter((c) => c.added || c.removed)
        .reduce((n, c) => n + (c.count ?? 0), 0);
      expect(edits(script ?? []), `trial ${trial}`).toBe(reference);
      expect(editLowerBound(a, b)).toBeLessThanOrEqual(reference);
    }
  });
});
