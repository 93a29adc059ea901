import { describe, expect, it } from 'vitest';
import { compareValues } from './compare.ts';

describe('compareValues', () => {
  it('orders numbers by value, not as text', () => {
    expect([14, 9, 1].sort(compareValues)).toEqual([1, 9, 14]);
  });

  it('orders text case-insensitively with empty values last', () => {
    expect(['beta', '', 'Alpha', null, 'alpha2'].sort(compareValues)).toEqual(['Alpha', 'alpha2', 'beta', '', null]);
  });
});
