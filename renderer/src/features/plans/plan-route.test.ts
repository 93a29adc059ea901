import { describe, expect, it } from 'vitest';
import { plansHash, plansLocation } from './plan-route.ts';

describe('plansLocation', () => {
  it('reads the list, a plan and a review with or without a file', () => {
    expect(plansLocation('#/plans')).toEqual({ kind: 'list' });
    expect(plansLocation('#/plans/')).toEqual({ kind: 'list' });
    expect(plansLocation('#/plans/01ABC')).toEqual({ kind: 'plan', planId: '01ABC' });
    expect(plansLocation('#/plans/01ABC/review')).toEqual({ kind: 'plan', planId: '01ABC' });
    expect(plansLocation('#/plans/01ABC/review/SB1')).toEqual({
      kind: 'review',
      planId: '01ABC',
      sandboxId: 'SB1',
      path: null,
    });
    expect(plansLocation('#/plans/01ABC/review/SB1/src/a%20b.ts')).toEqual({
      kind: 'review',
      planId: '01ABC',
      sandboxId: 'SB1',
      path: 'src/a b.ts',
    });
  });

  it('round-trips odd file names through the hash', () => {
    for (const path of ['a b/c#d.ts', 'ü/%41.txt', 'q?x=1', 'x/%']) {
      const location = { kind: 'review', planId: 'P', sandboxId: 'S', path } as const;
      expect(plansLocation(plansHash(location))).toEqual(location);
    }
  });

  it('survives malformed escapes', () => {
    expect(plansLocation('#/plans/%E0%A4%A/review/S/x')).toEqual({
      kind: 'review',
      planId: '%E0%A4%A',
      sandboxId: 'S',
      path: 'x',
    });
  });
});
