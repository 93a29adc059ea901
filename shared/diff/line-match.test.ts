import { diffArrays } from 'diff';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../patch-selection-samples.ts';
import { countLineChanges, lineMatchSource, matchLines, myersMatches, splitLines, uniqueAnchors, type MatchNotes } from './line-match.ts';

/** Checks that `pairs` match equal items in increasing order on both sides; gives how many. */
function checked(a: number[], b: number[], pairs: ArrayLike<number>): number {
  for (let p = 0; p < pairs.length; p += 2) {
    expect(a[pairs[p]!]).toBe(b[pairs[p + 1]!]);
    if (p > 0) expect(pairs[p]! > pairs[p - 2]! && pairs[p + 1]! > pairs[p - 1]!).toBe(true);
  }
  return pairs.length / 2;
}

describe('splitLines', () => {
  it('splits as git does: endings kept, CRLF whole, a last line without newline counted', () => {
    expect(splitLines('a\r\nb\n\nc')).toEqual(['a\r\n', 'b\n', '\n', 'c']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines('x\r')).toEqual(['x\r']);
  });
});

describe('myersMatches', () => {
  it('handles empty and equal inputs', () => {
    expect(myersMatches([], [], 10)).toEqual([]);
    expect(myersMatches([1, 2], [1, 2], 0)).toEqual([0, 0, 1, 1]);
    expect(myersMatches([], [1, 2], 10)).toEqual([]);
  });

  it('gives up above the budget and succeeds at exactly the needed number of edits', () => {
    expect(myersMatches([1, 2, 3, 4], [4, 3, 2, 1], 5)).toBeNull();
    expect(myersMatches([1, 2, 3, 4], [4, 3, 2, 1], 6)).toHaveLength(2);
  });

  it('answers sides with nothing in common at once, whatever the budget', () => {
    expect(myersMatches([1, 2, 3], [4, 5], 0)).toEqual([]);
  });
});

describe('matchLines', () => {
  it('is a longest common subsequence (as long as jsdiff finds) for 500 random pairs', () => {
    const random = seededRandom(1986);
    for (let trial = 0; trial < 500; trial++) {
      const size = () => Math.floor(random() * 40);
      const alphabet = 2 + Math.floor(random() * 6);
      const a = Array.from({ length: size() }, () => Math.floor(random() * alphabet));
      const b = Array.from({ length: size() }, () => Math.floor(random() * alphabet));
      const notes: MatchNotes = { approximate: false };
      const matched = checked(a, b, matchLines(a, b, a.length + b.length, notes));
      const reference = diffArrays(a, b).filter((c) => !c.added && !c.removed).reduce((n, c) => n + c.value.length, 0);
      expect(matched, `trial ${trial}`).toBe(reference);
      expect(notes.approximate).toBe(false);
    }
  });

  it('past the budget keeps unique lines as anchors, and notes stretches it had to leave unmatched', () => {
    // Around the one unique line, 9, each stretch needs two edits: a budget of 0 leaves them whole.
    const a = [1, 2, 1, 2, 9, 3, 4, 3, 4];
    const b = [2, 1, 2, 1, 9, 4, 3, 4, 3];
    const tight: MatchNotes = { approximate: false };
    expect(Array.from(matchLines(a, b, 0, tight))).toEqual([4, 4]);
    expect(tight.approximate).toBe(true);
    // Four edits in all: past a budget of 2 for the whole, within it for each stretch.
    const roomy: MatchNotes = { approximate: false };
    expect(checked(a, b, matchLines(a, b, 2, roomy))).toBe(7);
    expect(roomy.approximate).toBe(false);
  });

  it('matches the same with sparse or negative ids as with dense interned ones', () => {
    // Dense ids take typed-array counters; others a Set and a Map: the answer must not depend on which.
    const random = seededRandom(7);
    for (let trial = 0; trial < 200; trial++) {
      const a = Array.from({ length: Math.floor(random() * 30) }, () => Math.floor(random() * 5));
      const b = Array.from({ length: Math.floor(random() * 30) }, () => Math.floor(random() * 5));
      const dense = Array.from(matchLines(a, b, trial % 3));
      const far = (x: number) => (x % 2 ? -1 - x : x * 1e9);
      expect(Array.from(matchLines(a.map(far), b.map(far), trial % 3)), `trial ${trial}`).toEqual(dense);
    }
  });

  it('does not call a replacement with nothing in common approximate, however large', () => {
    const a = Array.from({ length: 5000 }, (_, i) => i);
    const b = Array.from({ length: 5000 }, (_, i) => -1 - i);
    const notes: MatchNotes = { approximate: false };
    expect(matchLines(a, b, 10, notes)).toHaveLength(0);
    expect(notes.approximate).toBe(false);
  });
});

describe('uniqueAnchors', () => {
  it('keeps the longest increasing chain of lines unique on both sides', () => {
    // 1 and 2 swap places, 3 repeats on one side, 4 and 5 stay in order.
    expect(uniqueAnchors([1, 2, 3, 4, 5], [2, 1, 3, 3, 4, 5])).toEqual([1, 0, 3, 4, 4, 5]);
    expect(uniqueAnchors([], [1])).toEqual([]);
  });
});

describe('lineMatchSource', () => {
  it('is a script that counts on its own, as the worker thread runs it', () => {
    const count = new Function(`const __name = (fn) => fn;\n${lineMatchSource()}\nreturn countLineChanges;`)() as typeof countLineChanges;
    expect(count('a\nb\nc\n', 'a\nB\nc\nd\n', 2000)).toEqual({ additions: 2, deletions: 1 });
  });
});
