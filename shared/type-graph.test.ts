import { describe, expect, it } from 'vitest';
import { parentChoices, TypeGraph } from './type-graph.ts';

const type = (name: string, parentTypes: string[] = []) => ({ name, parentTypes });

const graph = new TypeGraph([
  type('git-checkout'),
  type('fs-directory', ['git-checkout']),
  type('docs-dir', ['fs-directory']),
  type('lonely'),
]);

describe('TypeGraph', () => {
  it('matches a type exactly', () => {
    expect(graph.compatibilityPath('git-checkout', 'git-checkout')).toEqual(['git-checkout']);
  });

  it('follows parent types, as the reference example: fs-directory satisfies git-checkout', () => {
    expect(graph.compatibilityPath('fs-directory', 'git-checkout')).toEqual(['fs-directory', 'git-checkout']);
  });

  it('is transitive and names the whole path', () => {
    expect(graph.compatibilityPath('docs-dir', 'git-checkout')).toEqual(['docs-dir', 'fs-directory', 'git-checkout']);
  });

  it('names the shortest path when there are several', () => {
    const diamond = new TypeGraph([type('top'), type('mid', ['top']), type('low', ['mid', 'top'])]);
    expect(diamond.compatibilityPath('low', 'top')).toEqual(['low', 'top']);
  });

  it('does not go down: a parent does not satisfy a sub-type slot', () => {
    expect(graph.compatibilityPath('git-checkout', 'fs-directory')).toBeNull();
    expect(graph.compatibilityPath('lonely', 'git-checkout')).toBeNull();
  });

  it('lists ancestors', () => {
    expect(graph.ancestors('docs-dir').sort()).toEqual(['fs-directory', 'git-checkout']);
  });

  it('follows sub-types transitively', () => {
    expect([...graph.descendants('git-checkout')].sort()).toEqual(['docs-dir', 'fs-directory']);
    expect(graph.descendants('docs-dir').size).toBe(0);
  });

  it('terminates on a cycle already in the data', () => {
    const cyclic = new TypeGraph([type('a', ['b']), type('b', ['a'])]);
    expect([...cyclic.descendants('a')].sort()).toEqual(['a', 'b']);
    expect(cyclic.ancestors('a').sort()).toEqual(['a', 'b']);
    expect(cyclic.compatibilityPath('a', 'b')).toEqual(['a', 'b']);
    expect(cyclic.cycleThrough('a')).toEqual(['a', 'b', 'a']);
  });

  it('tests a change before it is saved', () => {
    expect(graph.with(type('git-checkout', ['docs-dir'])).cycleThrough('git-checkout')).toEqual(['git-checkout', 'docs-dir', 'fs-directory', 'git-checkout']);
    expect(graph.cycleThrough('git-checkout')).toBeNull();
  });
});

describe('parentChoices', () => {
  const types = [type('git-checkout'), type('fs-directory', ['git-checkout']), type('docs', ['fs-directory']), type('other')];

  it('refuses the type itself and its descendants, explaining why', () => {
    const choices = parentChoices(types, 'git-checkout');
    expect(choices.map((c) => c.name)).toEqual(['fs-directory', 'docs', 'other']);
    expect(choices.filter((c) => !c.allowed).map((c) => c.reason)).toEqual(['already a sub-type of git-checkout', 'already a sub-type of git-checkout']);
  });

  it('allows every type for a new one', () => {
    expect(parentChoices(types, null).every((c) => c.allowed)).toBe(true);
  });
});
