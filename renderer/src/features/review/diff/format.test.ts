import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatMode, formatSizeDelta, renameParts } from './format.ts';

describe('formatCount', () => {
  it('groups thousands', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(48213)).toBe('48,213');
    expect(formatCount(1234567)).toBe('1,234,567');
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [812, '812 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [150 * 1024, '150 KB'],
    [12.34 * 1024 * 1024, '12.3 MB'],
    [3 * 1024 ** 4, '3 TB'],
    [-2048, '-2 KB'],
  ])('%d is %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('formatSizeDelta', () => {
  it('gives the signed change and its share of the old size', () => {
    expect(formatSizeDelta(1000, 1150)).toBe('+150 B (+15%)');
    expect(formatSizeDelta(10000, 9700)).toBe('\u2212300 B (\u22123%)');
    expect(formatSizeDelta(100000, 100001)).toBe('+1 B (+<1%)');
    expect(formatSizeDelta(5, 5)).toBe('no size change');
  });

  it('gives no share for an added or deleted file', () => {
    expect(formatSizeDelta(null, 2048)).toBe('+2 KB');
    expect(formatSizeDelta(2048, null)).toBe('\u22122 KB');
  });
});

describe('formatMode', () => {
  it('spells modes as git does', () => {
    expect(formatMode(0o100644)).toBe('100644');
    expect(formatMode(0o100755)).toBe('100755');
    expect(formatMode(0o120000)).toBe('120000');
    expect(formatMode(0o644)).toBe('000644');
  });
});

describe('renameParts', () => {
  it('shares the common directory only', () => {
    expect(renameParts('src/lib/a.ts', 'src/lib/b.ts')).toEqual({
      prefix: 'src/lib/',
      from: 'a.ts',
      to: 'b.ts',
    });
    expect(renameParts('src/lib/a.ts', 'src/app/a.ts')).toEqual({
      prefix: 'src/',
      from: 'lib/a.ts',
      to: 'app/a.ts',
    });
    expect(renameParts('a.ts', 'b.ts')).toEqual({ prefix: '', from: 'a.ts', to: 'b.ts' });
    expect(renameParts('src/abc.ts', 'src/abd.ts')).toEqual({ prefix: 'src/', from: 'abc.ts', to: 'abd.ts' });
    expect(renameParts('docs/x', 'docs/x/y')).toEqual({ prefix: 'docs/', from: 'x', to: 'x/y' });
  });
});
