import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/errors.ts';
import { assertValidParents, TypeGraph } from './type-graph.ts';

const graph = new TypeGraph([
  { name: 'git-checkout', parentTypes: [] },
  { name: 'fs-directory', parentTypes: ['git-checkout'] },
  { name: 'docs-dir', parentTypes: ['fs-directory'] },
  { name: 'lonely', parentTypes: [] },
]);

describe('assertValidParents', () => {
  it('accepts a new type with known parents', () => {
    expect(() => assertValidParents(graph, { name: 'notes', parentTypes: ['docs-dir'] })).not.toThrow();
  });

  it('refuses unknown parents and names them', () => {
    expect(() => assertValidParents(graph, { name: 'notes', parentTypes: ['nope'] })).toThrow(/Unknown parent type "nope"/);
  });

  it('refuses a self-parent', () => {
    expect(() => assertValidParents(graph, { name: 'lonely', parentTypes: ['lonely'] })).toThrow(/cycle: lonely -> lonely/);
  });

  it('refuses a cycle through other types and shows it', () => {
    let error: unknown;
    try {
      assertValidParents(graph, { name: 'git-checkout', parentTypes: ['docs-dir'] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('git-checkout -> docs-dir -> fs-directory -> git-checkout');
  });
});
