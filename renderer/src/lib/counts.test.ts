import { describe, expect, it } from 'vitest';
import { formatCount, formatNumber, nounFor } from './counts.ts';
import { plural } from './labels.ts';

describe('counts', () => {
  it('groups digits', () => {
    expect(formatNumber(5001)).toBe('5,001');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(1234567)).toBe('1,234,567');
  });

  it('uses the singular only for one', () => {
    expect(formatCount(1, 'resource')).toBe('1 resource');
    expect(formatCount(0, 'change')).toBe('0 changes');
    expect(formatCount(5001, 'change')).toBe('5,001 changes');
    expect(formatCount(2, 'entry', 'entries')).toBe('2 entries');
    expect(nounFor(1, 'file')).toBe('file');
    expect(nounFor(3, 'file')).toBe('files');
  });

  it('is what the older plural() helper says too', () => {
    expect(plural(10000, 'resource')).toBe(formatCount(10000, 'resource'));
  });
});
