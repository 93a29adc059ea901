import { describe, expect, it } from 'vitest';
import { plural } from './labels.ts';

describe('plural', () => {
  it('uses the singular only for one', () => {
    expect(plural(1, 'slot')).toBe('1 slot');
    expect(plural(0, 'slot')).toBe('0 slots');
    expect(plural(10000, 'resource')).toBe('10,000 resources');
  });
});
