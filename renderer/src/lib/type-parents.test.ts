import { describe, expect, it } from 'vitest';
import type { ResourceTypeSpec } from '../../../shared/model.ts';
import { descendantsOf, parentChoices } from './type-parents.ts';

const type = (name: string, parentTypes: string[] = []): ResourceTypeSpec => ({
  name,
  parentTypes,
  description: '',
  handler: null,
  sandboxStrategy: 'none',
  builtIn: false,
  createdAt: '',
  updatedAt: '',
});

const types = [type('git-checkout'), type('fs-directory', ['git-checkout']), type('docs', ['fs-directory']), type('other')];

describe('descendantsOf', () => {
  it('follows sub-types transitively', () => {
    expect([...descendantsOf(types, 'git-checkout')].sort()).toEqual(['docs', 'fs-directory']);
    expect(descendantsOf(types, 'docs').size).toBe(0);
  });

  it('terminates on a cycle already in the data', () => {
    expect([...descendantsOf([type('a', ['b']), type('b', ['a'])], 'a')].sort()).toEqual(['a', 'b']);
  });
});

describe('parentChoices', () => {
  it('refuses the type itself and its descendants, explaining why', () => {
    const choices = parentChoices(types, 'git-checkout');
    expect(choices.map((c) => c.name)).toEqual(['fs-directory', 'docs', 'other']);
    expect(choices.filter((c) => !c.allowed).map((c) => c.reason)).toEqual(['already a sub-type of git-checkout', 'already a sub-type of git-checkout']);
  });

  it('allows every type for a new one', () => {
    expect(parentChoices(types, null).every((c) => c.allowed)).toBe(true);
  });
});
