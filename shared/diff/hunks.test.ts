import { describe, expect, it } from 'vitest';
import { eachHunkLine, hunkNumbers, lineChanges, lineHunks, matchedChanges, type LineHunk } from './hunks.ts';
import { internLines, matchLines, splitLines } from './line-match.ts';

/** The hunk as unified-diff marks, e.g. [' 0/0', '-1/1', '+2/1']: sign, old index / new index. */
function marks(hunk: LineHunk): string[] {
  const out: string[] = [];
  eachHunkLine(hunk, (sign, i, j) => out.push(`${sign}${i}/${j}`));
  return out;
}

describe('lineChanges', () => {
  it('gives the runs between matches, in file order, at both ends too', () => {
    // old: x a y b ; new: a z b w
    expect(lineChanges([1, 0, 3, 2], 4, 4)).toEqual([
      { oldAt: 0, newAt: 0, dels: 1, adds: 0 },
      { oldAt: 2, newAt: 1, dels: 1, adds: 1 },
      { oldAt: 4, newAt: 3, dels: 0, adds: 1 },
    ]);
    expect(lineChanges([], 0, 2)).toEqual([{ oldAt: 0, newAt: 0, dels: 0, adds: 2 }]);
    expect(lineChanges([0, 0], 1, 1)).toEqual([]);
  });
});

describe('lineHunks', () => {
  const one = (at: number) => ({ oldAt: at, newAt: at, dels: 1, adds: 1 });

  it('joins changes at most 2 × context lines apart, as git does, and splits them past that', () => {
    expect(lineHunks([one(3), one(10)], 20, 3)).toHaveLength(1); // six unchanged lines between
    const apart = lineHunks([one(3), one(11)], 20, 3); // seven
    expect(apart.map(hunkNumbers)).toEqual([
      { oldStart: 1, oldLines: 7, newStart: 1, newLines: 7 },
      { oldStart: 9, oldLines: 7, newStart: 9, newLines: 7 },
    ]);
  });

  it('cuts context short at the ends of the file', () => {
    const [hunk] = lineHunks([{ oldAt: 1, newAt: 1, dels: 1, adds: 2 }], 3, 3);
    expect(marks(hunk!)).toEqual([' 0/0', '-1/1', '+2/1', '+2/2', ' 2/3']);
  });

  it('numbers an empty side from the line before, as a unified diff does', () => {
    const [added] = lineHunks(lineChanges([], 0, 2), 0, 3);
    expect(hunkNumbers(added!)).toEqual({ oldStart: 0, oldLines: 0, newStart: 1, newLines: 2 });
    const [inserted] = lineHunks([{ oldAt: 5, newAt: 5, dels: 0, adds: 1 }], 5, 0);
    expect(hunkNumbers(inserted!)).toEqual({ oldStart: 5, oldLines: 0, newStart: 6, newLines: 1 });
  });
});

describe('matchedChanges', () => {
  it('gives the line match\'s changes, and a side with no lines as one change without matching', () => {
    const pairs: Array<[string, string]> = [['a\nb\nc\n', 'a\nB\nc\nd'], ['', 'x\ny\n'], ['x\ny', ''], ['', '']];
    for (const [before, after] of pairs) {
      const [a, b] = internLines(splitLines(before), splitLines(after));
      expect(matchedChanges(splitLines(before), splitLines(after))).toEqual(lineChanges(matchLines(a, b), a.length, b.length));
    }
    expect(matchedChanges([], ['x\n', 'y\n'])).toEqual([{ oldAt: 0, newAt: 0, dels: 0, adds: 2 }]);
  });
});
