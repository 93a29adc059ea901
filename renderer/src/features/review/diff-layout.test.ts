import { describe, expect, it } from 'vitest';
import { layoutFor } from './diff-layout.ts';

describe('diff layout', () => {
  it('opens added and deleted files unified, whatever the chosen layout', () => {
    expect(layoutFor('added', 'split', null)).toBe('unified');
    expect(layoutFor('deleted', 'split', null)).toBe('unified');
    expect(layoutFor('added', 'split', 'split')).toBe('split');
  });

  it('keeps the chosen layout for the rest', () => {
    expect(layoutFor('modified', 'split', null)).toBe('split');
    expect(layoutFor('renamed', 'unified', 'split')).toBe('unified');
  });
});
