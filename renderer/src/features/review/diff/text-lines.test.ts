import { describe, expect, it } from 'vitest';
import { displayColumns, eolStyle, splitLines } from './text-lines.ts';

describe('splitLines', () => {
  it('has no lines for an empty text', () => {
    expect(splitLines('')).toEqual([]);
  });

  it('keeps a final line without newline and marks it', () => {
    expect(splitLines('a\nb')).toEqual([
      { text: 'a', crlf: false, noEol: false },
      { text: 'b', crlf: false, noEol: true },
    ]);
  });

  it('does not invent a line after a final newline', () => {
    expect(splitLines('a\n')).toEqual([{ text: 'a', crlf: false, noEol: false }]);
    expect(splitLines('\n')).toEqual([{ text: '', crlf: false, noEol: false }]);
  });

  it('strips and records CRLF, and leaves a lone CR inside the line', () => {
    expect(splitLines('a\r\nb\rc\n\r\n')).toEqual([
      { text: 'a', crlf: true, noEol: false },
      { text: 'b\rc', crlf: false, noEol: false },
      { text: '', crlf: true, noEol: false },
    ]);
  });

  it('treats a lone trailing CR as text', () => {
    expect(splitLines('x\r')).toEqual([{ text: 'x\r', crlf: false, noEol: true }]);
  });
});

describe('eolStyle', () => {
  it.each([
    ['', 'none'],
    ['one line', 'none'],
    ['a\nb\n', 'lf'],
    ['a\r\nb\r\nc', 'crlf'],
    ['a\r\nb\n', 'mixed'],
  ])('%j is %s', (text, style) => {
    expect(eolStyle(splitLines(text))).toBe(style);
  });
});

describe('displayColumns', () => {
  it('expands tabs to the next stop', () => {
    expect(displayColumns('')).toBe(0);
    expect(displayColumns('abc')).toBe(3);
    expect(displayColumns('\tx')).toBe(5);
    expect(displayColumns('ab\tx')).toBe(5);
    expect(displayColumns('abcd\t')).toBe(8);
    expect(displayColumns('a\tb', 8)).toBe(9);
  });
});
