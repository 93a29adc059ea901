import { describe, expect, it } from 'vitest';
import { listsToReload } from './refresh-plan.ts';

describe('listsToReload', () => {
  it('reloads resources and projects together, each once', () => {
    expect(listsToReload(['resources'])).toEqual(['resources', 'projects']);
    expect(listsToReload(['projects', 'resources'])).toEqual(['projects', 'resources']);
  });

  it('reloads only what changed otherwise', () => {
    expect(listsToReload(['types'])).toEqual(['types']);
    expect(listsToReload(['tools', 'types'])).toEqual(['tools', 'types']);
    expect(listsToReload([])).toEqual([]);
  });
});
