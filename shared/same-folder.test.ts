import { describe, expect, it } from 'vitest';
import { resourcesAt, sameFolderWarning } from './same-folder.ts';

describe('same folder', () => {
  const resources = [
    { id: 'A', name: 'local/a', location: '/src/app' },
    { id: 'B', name: 'local/b', location: '/src/app' },
    { id: 'C', name: 'local/c', location: '/src/app/sub' },
  ];

  it('finds the other resources at exactly that folder', () => {
    expect(resourcesAt(resources, '/src/app').map((r) => r.name)).toEqual(['local/a', 'local/b']);
    expect(resourcesAt(resources, '/src/app', 'A').map((r) => r.name)).toEqual(['local/b']);
    expect(resourcesAt(resources, '/src')).toEqual([]);
  });

  it('names every other resource, and says nothing when there is none', () => {
    expect(sameFolderWarning([])).toBeNull();
    expect(sameFolderWarning(['local/a'])).toMatch(/^This folder is already registered as "local\/a": /);
    expect(sameFolderWarning(['local/a', 'local/b', 'x/c'])).toContain('as "local/a", "local/b" and "x/c":');
  });
});
