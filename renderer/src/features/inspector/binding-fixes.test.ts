import { describe, expect, it } from 'vitest';
import type { ResourceListItem } from '../../../../shared/dto.ts';
import type { BindingResult, CandidateExplanation, ResourceTypeSpec } from '../../../../shared/model.ts';
import { bindingFixes, compatibleTypes, parameterChoices } from './binding-fixes.ts';

const stamp = '2025-01-01T00:00:00.000Z';
const type = (name: string, parentTypes: string[] = []): ResourceTypeSpec => ({
  name,
  description: '',
  parentTypes,
  handler: null,
  sandboxStrategy: 'copy_on_write',
  builtIn: false,
  createdAt: stamp,
  updatedAt: stamp,
});
const TYPES = [
  type('git-checkout'),
  type('fs-directory', ['git-checkout']),
  type('docs', ['fs-directory']),
  type('other'),
];
const resource = (name: string, typeName: string, projects: string[] = []): ResourceListItem => ({
  id: `id-${name}`,
  name,
  typeName,
  location: `/x/${name}`,
  sandboxStrategy: null,
  description: '',
  createdAt: stamp,
  updatedAt: stamp,
  projects,
});
const candidate = (name: string, compatible: boolean, alias: string | null = null): CandidateExplanation => ({
  resourceId: `id-${name}`,
  resourceName: name,
  resourceType: 'git-checkout',
  alias,
  compatible,
  typePath: compatible ? ['git-checkout'] : null,
  reason: compatible ? 'exact' : 'incompatible',
  chosen: false,
});
const result = (patch: Partial<BindingResult>, candidates: CandidateExplanation[]): BindingResult => ({
  slotName: 'repo',
  bindingMode: 'contextual',
  resourceId: null,
  resourceType: 'git-checkout',
  access: 'read_write',
  required: true,
  deferred: false,
  error: 'failed',
  explanation: { candidates, rule: 'r', summary: 's', fix: 'f' },
  ...patch,
});

describe('bindingFixes', () => {
  it('offers the slot name as alias on each compatible candidate of an ambiguity', () => {
    const fixes = bindingFixes(
      result({}, [
        candidate('local/a', true, 'old'),
        candidate('local/b', true),
        candidate('local/c', false),
      ]),
      'p',
      [],
      TYPES,
    );
    expect(fixes).toEqual([
      { kind: 'alias', resourceId: 'id-local/a', resourceName: 'local/a', alias: 'repo', replaces: 'old' },
      { kind: 'alias', resourceId: 'id-local/b', resourceName: 'local/b', alias: 'repo', replaces: null },
    ]);
  });

  it('offers linking compatible resources not yet in the project when none is linked', () => {
    const resources = [
      resource('local/a', 'git-checkout', ['p']),
      resource('local/b', 'docs'),
      resource('local/c', 'other'),
      resource('local/d', 'git-checkout', ['q']),
    ];
    const [fix] = bindingFixes(result({}, [candidate('local/c', false)]), 'p', resources, TYPES);
    expect(fix?.kind === 'link' && fix.resources.map((r) => r.name)).toEqual(['local/b', 'local/d']);
  });

  it('offers nothing for bound, static or parameter slots', () => {
    expect(bindingFixes(result({ error: null }, [candidate('a', true)]), 'p', [], TYPES)).toEqual([]);
    expect(bindingFixes(result({ bindingMode: 'static' }, []), 'p', [], TYPES)).toEqual([]);
    expect(bindingFixes(result({ bindingMode: 'parameter' }, []), 'p', [], TYPES)).toEqual([]);
  });
});

describe('compatible types and parameter choices', () => {
  it('includes transitive sub-types', () => {
    expect([...compatibleTypes(TYPES, 'git-checkout')].sort()).toEqual([
      'docs',
      'fs-directory',
      'git-checkout',
    ]);
    expect([...compatibleTypes(TYPES, 'docs')]).toEqual(['docs']);
  });

  it('lists compatible resources by name', () => {
    const resources = [
      resource('local/z', 'docs'),
      resource('local/a', 'fs-directory'),
      resource('local/o', 'other'),
    ];
    expect(parameterChoices('fs-directory', resources, TYPES).map((r) => r.name)).toEqual([
      'local/a',
      'local/z',
    ]);
  });
});
