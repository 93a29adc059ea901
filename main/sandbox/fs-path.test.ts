import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeName, displayPath, encodeName, hasEscapes, inRoot } from './fs-path.ts';
import { isSandboxDepth, isStrictlyInside, sandboxPathFor } from './layout.ts';

describe('exact file names', () => {
  const samples: Array<[string, Buffer]> = [
    ['plain', Buffer.from('plain.txt')],
    ['utf-8', Buffer.from('grüße – 日本.txt')],
    ['emoji', Buffer.from('🙂.md')],
    ['invalid byte', Buffer.from([0x61, 0xff, 0x62])],
    ['latin-1', Buffer.from([0x63, 0x61, 0x66, 0xe9])],
    ['truncated sequence', Buffer.from([0xe2, 0x82])],
    ['overlong', Buffer.from([0xc0, 0xaf])],
    ['surrogate encoded', Buffer.from([0xed, 0xa0, 0x80])],
    ['literal U+FFFD', Buffer.from('x\uFFFDy')],
  ];
  it.each(samples)('round-trips %s', (_label, bytes) => {
    const name = decodeName(bytes);
    expect(encodeName(name).equals(bytes)).toBe(true);
    expect(JSON.parse(JSON.stringify(name))).toBe(name);
  });

  it('keeps valid names as plain strings and escapes only bad bytes', () => {
    expect(decodeName(Buffer.from('a b\nc'))).toBe('a b\nc');
    expect(decodeName(Buffer.from([0x61, 0xff]))).toBe('a\udcff');
    expect(hasEscapes('a\udcff')).toBe(true);
    expect(displayPath('a\udcff')).toBe('a\\xff');
    expect(inRoot('/r', 'x/y')).toBe(path.join('/r', 'x/y'));
    expect(inRoot('/r', 'a\udcff')).toEqual(Buffer.from([0x2f, 0x72, 0x2f, 0x61, 0xff]));
  });
});

describe('sandbox layout predicates', () => {
  it('names sandbox folders readably and safely', () => {
    expect(sandboxPathFor('/s', 'P1', 'local/my-app', '01HZZZABCDEF')).toBe('/s/P1/my-app-abcdef');
    expect(sandboxPathFor('/s', 'P1', 'x/..', '01HZZZABCDEF')).toBe('/s/P1/_-abcdef');
  });

  it.each([
    ['/root', '/root/p/s', true, true],
    ['/root', '/root/p', true, false],
    ['/root', '/root', false, false],
    ['/root', '/root/p/s/deeper', true, false],
    ['/root', '/root/../etc/p', false, false],
    ['/root', '/rootx/p/s', false, false],
    ['/root', '/elsewhere/p/s', false, false],
  ])('under %s, %s: inside=%s, sandbox depth=%s', (root, candidate, inside, depth) => {
    expect(isStrictlyInside(root, path.normalize(candidate))).toBe(inside);
    expect(isSandboxDepth(root, path.normalize(candidate))).toBe(depth);
  });
});
