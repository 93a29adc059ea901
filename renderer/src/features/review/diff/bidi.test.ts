import { describe, expect, it } from 'vitest';
import { BIDI_CHAR, bidiTitle, codePointLabel, countBidi } from './bidi.ts';
import { computeLineDiff } from './line-diff.ts';

describe('bidirectional characters', () => {
  it('knows exactly the embedding, override and isolate controls', () => {
    const controls = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
    for (const code of controls) expect(BIDI_CHAR.test(String.fromCodePoint(code))).toBe(true);
    // Neighbours and ordinary marks are not flagged.
    for (const code of [0x2029, 0x202f, 0x2065, 0x206a, 0x200e, 0x200f, 0x61]) {
      expect(BIDI_CHAR.test(String.fromCodePoint(code))).toBe(false);
    }
  });

  it('counts the lines and characters on both sides', () => {
    const trojan = 'if (access != "user\u202E \u2066// check\u2069 \u2066") {\n';
    const diff = computeLineDiff('ok\n', `ok\n${trojan}plain\n`);
    expect(countBidi(diff)).toEqual({ lines: 1, chars: 4 });
    expect(countBidi(computeLineDiff('a\n', 'b\n'))).toEqual({ lines: 0, chars: 0 });
  });

  it('names a character for its marker', () => {
    expect(codePointLabel('\u202E')).toBe('U+202E');
    expect(bidiTitle('\u2066')).toBe('U+2066 LEFT-TO-RIGHT ISOLATE');
  });
});
