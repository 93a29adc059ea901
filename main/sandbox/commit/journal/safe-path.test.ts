import { describe, expect, it } from 'vitest';
import { checkRelPath, isInside } from './safe-path.ts';

describe('checkRelPath', () => {
  it.each(['a', 'a/b/c.txt', 'with space', 'line\nbreak', '-rf', '.hidden', '..dots', 'a/...', 'é/日本', 'f\udcff.t', '😀/d\udcfe'])('accepts %j', (relPath) => {
    expect(checkRelPath(relPath, 'linux')).toBeNull();
  });

  it.each([
    ['', /empty/],
    ['/etc/passwd', /absolute/],
    ['..', /".."/],
    ['a/../../b', /".."/],
    ['a/./b', /"."/],
    ['a//b', /empty segment/],
    ['a/', /empty segment/],
    ['a\0b', /NUL/],
    ['lone \ud800 surrogate', /lone surrogate/],
    ['\udcc3\udca9 (the bytes of é, escaped)', /lone surrogate/],
  ])('refuses %j', (relPath, reason) => {
    expect(checkRelPath(relPath, 'linux')).toMatch(reason);
  });

  it('refuses backslashes and drive letters on Windows only', () => {
    expect(checkRelPath('a\\b', 'linux')).toBeNull();
    expect(checkRelPath('a\\..\\b', 'win32')).toMatch(/backslash/);
    expect(checkRelPath('C:/x', 'win32')).toMatch(/drive/);
  });
});

describe('isInside', () => {
  it('accepts the root and paths below it, nothing else', () => {
    expect(isInside('/r/t', '/r/t')).toBe(true);
    expect(isInside('/r/t', '/r/t/a/b')).toBe(true);
    expect(isInside('/r/t', '/r/t2')).toBe(false);
    expect(isInside('/r/t', '/r')).toBe(false);
    expect(isInside('/r/t', '/r/t/../u')).toBe(false);
  });
});
