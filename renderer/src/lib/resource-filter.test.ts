import { describe, expect, it } from 'vitest';
import type { ResourceListItem } from '../../../shared/dto.ts';
import { filterResources, typeCounts } from './resource-filter.ts';

function item(name: string, typeName: string, location: string, projects: string[] = []): ResourceListItem {
  return { id: name, name, typeName, location, projects, sandboxStrategy: null, description: '', createdAt: '', updatedAt: '' };
}

const items = [
  item('local/api', 'git-checkout', '/home/dev/src/api', ['backend']),
  item('local/web', 'git-checkout', '/home/dev/src/web', ['frontend']),
  item('local/shared-config', 'fs-directory', '/etc/shared', ['backend', 'frontend']),
];

describe('filterResources', () => {
  it('returns everything for an empty filter', () => {
    expect(filterResources(items, { text: '  ', typeName: '' })).toHaveLength(3);
  });

  it('keeps only the chosen type', () => {
    expect(filterResources(items, { text: '', typeName: 'fs-directory' }).map((r) => r.name)).toEqual(['local/shared-config']);
  });

  it('needs every word to match somewhere, case-insensitively', () => {
    expect(filterResources(items, { text: 'SRC backend', typeName: '' }).map((r) => r.name)).toEqual(['local/api']);
    expect(filterResources(items, { text: 'frontend', typeName: '' }).map((r) => r.name)).toEqual(['local/web', 'local/shared-config']);
  });

  it('combines text and type', () => {
    expect(filterResources(items, { text: 'frontend', typeName: 'git-checkout' }).map((r) => r.name)).toEqual(['local/web']);
  });

  it('filters 10,000 rows in one pass', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => item(`local/r${i}`, i % 2 ? 'git-checkout' : 'fs-directory', `/src/r${i}`));
    expect(filterResources(many, { text: 'r999', typeName: '' }).length).toBe(11);
  });
});

describe('typeCounts', () => {
  it('counts rows per type, sorted by name', () => {
    expect(typeCounts(items)).toEqual([
      { typeName: 'fs-directory', count: 1 },
      { typeName: 'git-checkout', count: 2 },
    ]);
  });
});
