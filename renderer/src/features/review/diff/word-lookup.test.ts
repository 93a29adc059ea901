import { describe, expect, it } from 'vitest';
import { computeLineDiff } from './line-diff.ts';
import { wordLookup } from './word-lookup.ts';

describe('wordLookup', () => {
  const diff = computeLineDiff(
    'keep\nlet a = 1;\nlet b = 2;\ngone entirely\n',
    'keep\nlet a = 10;\nlet b = 2; // two\n',
  );
  const words = wordLookup(diff);
  const at = (text: string, kind: string) => diff.lines.findIndex((l) => l.text === text && l.kind === kind);

  it('gives the ranges of each side of a pair', () => {
    const del = at('let a = 1;', 'del');
    const add = at('let a = 10;', 'add');
    expect(words(del)).toEqual([{ start: 8, end: 9 }]);
    expect(words(add)).toEqual([{ start: 8, end: 10 }]);
    expect(words(at('let b = 2; // two', 'add'))).toEqual([{ start: 10, end: 17 }]);
    expect(words(at('let b = 2;', 'del'))).toEqual([]);
  });

  it('gives nothing for context lines and for deletions without a partner', () => {
    expect(words(at('keep', 'context'))).toBeNull();
    expect(words(at('gone entirely', 'del'))).toBeNull();
    expect(words(999)).toBeNull();
  });

  it('answers the same on repeated calls (cached)', () => {
    const add = at('let a = 10;', 'add');
    expect(words(add)).toBe(words(add));
  });
});
