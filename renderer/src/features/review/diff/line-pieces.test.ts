import { describe, expect, it } from 'vitest';
import { linePieces, needsPieces } from './line-pieces.ts';
import { lineSegments } from './tokens.ts';

const strip = (pieces: ReturnType<typeof linePieces>) =>
  pieces.map((p) => [p.text, p.cls, p.changed, p.hit, p.bidi]);

describe('linePieces', () => {
  it('cuts syntax segments at find matches and marks the current one', () => {
    const segments = lineSegments(
      'const foo = foo;',
      [
        { text: 'const', cls: 'hljs-keyword' },
        { text: ' foo = foo;', cls: '' },
      ],
      null,
    );
    const pieces = linePieces(
      segments,
      [
        { start: 3, end: 9 },
        { start: 12, end: 15 },
      ],
      12,
    );
    expect(strip(pieces)).toEqual([
      ['con', 'hljs-keyword', false, 'none', false],
      ['st', 'hljs-keyword', false, 'match', false],
      [' foo', '', false, 'match', false],
      [' = ', '', false, 'none', false],
      ['foo', '', false, 'current', false],
      [';', '', false, 'none', false],
    ]);
    expect(pieces.map((p) => p.text).join('')).toBe('const foo = foo;');
  });

  it('draws each bidirectional character as its own piece, keeping word changes', () => {
    const text = 'a\u202Eb\u2066';
    const pieces = linePieces(lineSegments(text, null, [{ start: 0, end: 2 }]), null);
    expect(strip(pieces)).toEqual([
      ['a', '', true, 'none', false],
      ['\u202E', '', true, 'none', true],
      ['b', '', false, 'none', false],
      ['\u2066', '', false, 'none', true],
    ]);
  });

  it('is needed only for lines with matches or bidirectional characters', () => {
    expect(needsPieces('plain', null)).toBe(false);
    expect(needsPieces('plain', [])).toBe(false);
    expect(needsPieces('plain', [{ start: 0, end: 1 }])).toBe(true);
    expect(needsPieces('a\u2067b', null)).toBe(true);
  });
});
