import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.ts';
import { parseHunkIds, parseLineSpec, parseLineSpecs } from './patch-selection-spec.ts';

describe('parseHunkIds', () => {
  it('reads ids and ranges, sorted and without repeats', () => {
    expect(parseHunkIds('1,3')).toEqual([1, 3]);
    expect(parseHunkIds(' 4, 2-3 ,3')).toEqual([2, 3, 4]);
  });

  it('refuses what is not a hunk id, saying how to write one', () => {
    for (const bad of ['0', 'a', '1.5', '3-2', '-1', '1,,2', '', '1-999999999']) {
      expect(() => parseHunkIds(bad), bad).toThrow(ValidationError);
    }
    expect(() => parseHunkIds('x')).toThrow('"x" is not a hunk id: write hunk ids as whole numbers from 1');
    expect(() => parseHunkIds('')).toThrow('No hunk ids given');
  });
});

describe('parseLineSpec', () => {
  it('reads a path and lines, bare numbers matching both sides', () => {
    expect(parseLineSpec('src/a.ts:10-14,20')).toEqual({
      path: 'src/a.ts',
      ranges: [
        { side: 'both', from: 10, to: 14 },
        { side: 'both', from: 20, to: 20 },
      ],
    });
  });

  it('reads + for added lines only and - for deleted lines only', () => {
    expect(parseLineSpec('p:+12-14,-10').ranges).toEqual([
      { side: 'new', from: 12, to: 14 },
      { side: 'old', from: 10, to: 10 },
    ]);
  });

  it('splits at the last colon, so a path may hold colons', () => {
    expect(parseLineSpec('a:b.txt:3').path).toBe('a:b.txt');
  });

  it('refuses a missing path or bad numbers, with an example', () => {
    expect(() => parseLineSpec('10-14')).toThrow('"10-14" does not name a file: write the path, a colon and the line numbers (for example src/app.ts:10-14,20).');
    expect(() => parseLineSpec(':3')).toThrow(/does not name a file/);
    expect(() => parseLineSpec('p:')).toThrow('No line numbers given');
    expect(() => parseLineSpec('p:0')).toThrow('"0" in "p:0" is not a line or range');
    for (const bad of ['p:5-3', 'p:x', 'p:1,', 'p:++1', 'p:1-2-3', 'p:1.0']) expect(() => parseLineSpec(bad), bad).toThrow(ValidationError);
  });
});

describe('parseLineSpecs', () => {
  it('merges repeated files in first-seen order', () => {
    expect(parseLineSpecs(['b:1', 'a:2', 'b:+3'])).toEqual([
      {
        path: 'b',
        ranges: [
          { side: 'both', from: 1, to: 1 },
          { side: 'new', from: 3, to: 3 },
        ],
      },
      { path: 'a', ranges: [{ side: 'both', from: 2, to: 2 }] },
    ]);
  });
});
