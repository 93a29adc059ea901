import { describe, expect, it } from 'vitest';
import { routeFromHash } from './ui-store.ts';

describe('routeFromHash', () => {
  it('reads the screen from the hash and falls back to resources', () => {
    expect(routeFromHash('#/tools')).toBe('tools');
    expect(routeFromHash('#types')).toBe('types');
    expect(routeFromHash('#/projects/abc?x=1')).toBe('projects');
    expect(routeFromHash('')).toBe('resources');
    expect(routeFromHash('#/plans/01J0000000/review/abc')).toBe('plans');
    expect(routeFromHash('#/reviews')).toBe('resources');
  });
});
