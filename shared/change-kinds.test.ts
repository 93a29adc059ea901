import { describe, expect, it } from 'vitest';
import { STATUS_LABEL, STATUS_LETTER } from './change-kinds.ts';
import { CHANGE_KIND_VALUES } from './dto.ts';

describe('change kind letters', () => {
  it('gives every kind its own letter and a label', () => {
    const letters = CHANGE_KIND_VALUES.map((kind) => STATUS_LETTER[kind]);
    expect(letters).toEqual(['A', 'M', 'D', 'R', 'T', 'X']);
    expect(new Set(letters).size).toBe(CHANGE_KIND_VALUES.length);
    expect(CHANGE_KIND_VALUES.every((kind) => STATUS_LABEL[kind].length > 0)).toBe(true);
  });
});
