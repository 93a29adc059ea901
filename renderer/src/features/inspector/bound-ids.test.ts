import { describe, expect, it } from 'vitest';
import type { BindingResult } from '../../../../shared/model.ts';
import { boundIds } from './binding-fixes.ts';

const result = (resourceId: string | null) => ({ resourceId }) as BindingResult;

describe('boundIds', () => {
  it('lists each bound resource once and skips deferred or unbound slots', () => {
    expect(boundIds([result('A'), result(null), result('B'), result('A')])).toEqual(['A', 'B']);
    expect(boundIds(null)).toEqual([]);
  });
});
