import { describe, expect, it } from 'vitest';
import { lineSegments } from './tokens.ts';

describe('lineSegments', () => {
  const tokens = [
    { text: 'const', cls: 'hljs-keyword' },
    { text: ' x = ', cls: '' },
    { text: '"abc"', cls: 'hljs-string' },
    { text: ';', cls: '' },
  ];
  const text = 'const x = "abc";';

  it('returns the tokens unmarked without ranges', () => {
    expect(lineSegments(text, tokens, null)).toEqual(tokens.map((t) => ({ ...t, changed: false })));
  });

  it('cuts tokens at range boundaries and marks the inside', () => {
    expect(lineSegments(text, tokens, [{ start: 3, end: 12 }])).toEqual([
      { text: 'con', cls: 'hljs-keyword', changed: false },
      { text: 'st', cls: 'hljs-keyword', changed: true },
      { text: ' x = ', cls: '', changed: true },
      { text: '"a', cls: 'hljs-string', changed: true },
      { text: 'bc"', cls: 'hljs-string', changed: false },
      { text: ';', cls: '', changed: false },
    ]);
  });

  it('handles several ranges, including one at the very end', () => {
    const segments = lineSegments(text, tokens, [
      { start: 0, end: 5 },
      { start: 15, end: 16 },
    ]);
    expect(segments.filter((s) => s.changed).map((s) => s.text)).toEqual(['const', ';']);
    expect(segments.map((s) => s.text).join('')).toBe(text);
  });

  it('falls back to plain text when the tokens do not spell the line', () => {
    expect(lineSegments('other', tokens, [{ start: 1, end: 2 }])).toEqual([
      { text: 'o', cls: '', changed: false },
      { text: 't', cls: '', changed: true },
      { text: 'her', cls: '', changed: false },
    ]);
  });

  it('gives no segments for an empty line', () => {
    expect(lineSegments('', [], null)).toEqual([]);
    expect(lineSegments('', null, [])).toEqual([]);
  });

  it('always spells the line, for every range layout over a short line', () => {
    const line = 'ab cd';
    const plain = [
      { text: 'ab', cls: 'k' },
      { text: ' ', cls: '' },
      { text: 'cd', cls: 's' },
    ];
    for (let s = 0; s < line.length; s++) {
      for (let e = s + 1; e <= line.length; e++) {
        const segments = lineSegments(line, plain, [{ start: s, end: e }]);
        expect(segments.map((x) => x.text).join('')).toBe(line);
        expect(
          segments
            .filter((x) => x.changed)
            .map((x) => x.text)
            .join(''),
        ).toBe(line.slice(s, e));
      }
    }
  });
});
