/**
 * Every rule and example of reference/tool_bindings.md, run through the real registry (temp
 * SQLite file, real folders and git repositories). The YAML fixtures are the reference's text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/errors.ts';
import type { BindingResult, Project, Tool } from '../../shared/model.ts';
import type { Bindery } from './bindery.ts';
import { gitRepo, tempDir } from '../testing/fixtures.ts';
import { freshBindery } from '../testing/registry.ts';

const REFERENCE = path.join(import.meta.dirname, '../testing/reference');
let bindery: Bindery;

beforeEach(() => {
  bindery = freshBindery();
});
afterEach(() => bindery.close());

async function importReference(name: string): Promise<Tool> {
  const file = path.join(REFERENCE, `${name}.yaml`);
  return (await bindery.registry.importTools(fs.readFileSync(file, 'utf8'), file))[0] as Tool;
}

async function resource(name: string, typeName = 'fs-directory') {
  const location = typeName === 'git-checkout' ? gitRepo() : tempDir();
  return bindery.registry.addResource({ name, typeName, location });
}

function project(name = 'demo'): Project {
  return bindery.registry.addProject({ name });
}

function resolveError(tool: Tool, p: Project, params = {}): { error: ValidationError; results: BindingResult[] } {
  try {
    bindery.bindings.resolve(tool, p, params);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const results = ((error as ValidationError).details as { results: BindingResult[] }).results;
    return { error: error as ValidationError, results };
  }
  throw new Error('expected a ValidationError');
}

describe('reference: single contextual resource', () => {
  it('binds the only linked git-checkout (results[0].binding_mode == "contextual")', async () => {
    const tool = await importReference('contextual');
    const repo = await resource('local/app', 'git-checkout');
    const p = project();
    bindery.registry.link(p.name, repo.name);
    const results = bindery.bindings.resolve(tool, p);
    expect(results[0]?.bindingMode).toBe('contextual');
    expect(results[0]?.resourceId).toBe(repo.id);
    expect(results[0]?.explanation.rule).toBe('contextual: the only compatible resource in the project');
    expect(results[0]?.explanation.candidates[0]?.reason).toBe('exact: type git-checkout');
  });
});

describe('contextual rules', () => {
  it('accepts a sub-type: an fs-directory resource satisfies a git-checkout slot, with the path explained', async () => {
    const tool = await importReference('contextual');
    const dir = await resource('local/notes');
    const p = project();
    bindery.registry.link(p.name, dir.name);
    const [result] = bindery.bindings.resolve(tool, p);
    expect(result?.resourceId).toBe(dir.id);
    expect(result?.resourceType).toBe('fs-directory');
    expect(result?.explanation.candidates[0]?.reason).toBe('via fs-directory -> git-checkout');
  });

  it('follows sub-type chains of any length', async () => {
    bindery.registry.addType({ name: 'docs-dir', parentTypes: ['fs-directory'], sandboxStrategy: 'copy_on_write' });
    const docs = await resource('local/docs', 'docs-dir');
    const p = project();
    bindery.registry.link(p.name, docs.name);
    const [result] = bindery.bindings.resolve((await importReference('contextual')), p);
    expect(result?.explanation.candidates[0]?.typePath).toEqual(['docs-dir', 'fs-directory', 'git-checkout']);
  });

  it('ignores incompatible candidates and says why', async () => {
    bindery.registry.addType({ name: 'bucket' });
    const other = await resource('local/bucket', 'bucket');
    const repo = await resource('local/app', 'git-checkout');
    const p = project();
    bindery.registry.link(p.name, other.name);
    bindery.registry.link(p.name, repo.name);
    const [result] = bindery.bindings.resolve((await importReference('contextual')), p);
    expect(result?.resourceId).toBe(repo.id);
    const rejected = result?.explanation.candidates.find((c) => c.resourceId === other.id);
    expect(rejected?.compatible).toBe(false);
    expect(rejected?.reason).toBe('incompatible: bucket is not git-checkout or a sub-type of it');
  });

  it('disambiguates several matches by alias first', async () => {
    const a = await resource('local/repo', 'git-checkout');
    const b = await resource('local/other', 'git-checkout');
    const p = project();
    bindery.registry.link(p.name, a.name);
    bindery.registry.link(p.name, b.name, 'repo');
    const [result] = bindery.bindings.resolve((await importReference('contextual')), p);
    expect(result?.resourceId).toBe(b.id);
    expect(result?.explanation.rule).toBe('contextual: its alias equals the slot name "repo"');
  });

  it('falls back to the short name when no alias matches', async () => {
    const a = await resource('local/repo', 'git-checkout');
    const b = await resource('team/website', 'git-checkout');
    const p = project();
    bindery.registry.link(p.name, a.name);
    bindery.registry.link(p.name, b.name, 'site');
    const [result] = bindery.bindings.resolve((await importReference('contextual')), p);
    expect(result?.resourceId).toBe(a.id);
    expect(result?.explanation.rule).toBe('contextual: its short name equals the slot name "repo"');
  });

  it('raises a ValidationError naming the candidates and the fix when ambiguous', async () => {
    const a = await resource('local/web', 'git-checkout');
    const b = await resource('local/api', 'git-checkout');
    const p = project();
    bindery.registry.link(p.name, a.name);
    bindery.registry.link(p.name, b.name);
    const { error, results } = resolveError((await importReference('contextual')), p);
    expect(error.message).toContain('2 resources of type git-checkout are linked to project "demo": local/api, local/web');
    expect(results[0]?.explanation.fix).toBe('Set alias "repo" on the link of one of: local/api, local/web.');
    expect((error.details as { hints: unknown }).hints).toEqual([{ action: 'set-alias', project: 'demo', alias: 'repo' }]);
  });

  it('treats two equal short names as a tie, not a pick', async () => {
    const a = await resource('team-a/repo', 'git-checkout');
    const b = await resource('team-b/repo', 'git-checkout');
    const p = project();
    bindery.registry.link(p.name, a.name);
    bindery.registry.link(p.name, b.name);
    expect(resolveError((await importReference('contextual')), p).error.message).toContain('2 share the short name "repo"');
  });

  it('raises a ValidationError for a required slot with no match, saying what to link', async () => {
    const p = project();
    const { results } = resolveError((await importReference('contextual')), p);
    expect(results[0]?.error).toBe('No resource of type git-checkout (or a sub-type) is linked to project "demo".');
    expect(results[0]?.explanation.fix).toBe('Link a resource of type git-checkout to project "demo".');
  });

  it('leaves an optional slot with no match unbound', async () => {
    const [tool] = await bindery.registry.importTools(
      'name: opt\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    required: false\n',
      'opt.yaml',
    );
    const [result] = bindery.bindings.resolve(tool as Tool, project());
    expect([result?.resourceId, result?.deferred, result?.error]).toEqual([null, false, null]);
    expect(result?.explanation.summary).toMatch(/^Unbound \(optional\)/);
  });
});

describe('reference: static binding', () => {
  it('is validated at registration: the named resource must exist', async () => {
    await expect(importReference('static')).rejects.toThrow(/static\.yaml:6 .*Static resource "local\/shared-config" is not registered: register it first/);
  });

  it('binds the named resource regardless of project links', async () => {
    const cfg = await resource('local/shared-config');
    const tool = await importReference('static');
    const [result] = bindery.bindings.resolve(tool, project());
    expect([result?.bindingMode, result?.resourceId, result?.access]).toEqual(['static', cfg.id, 'read_only']);
  });

  it('fails at resolution when the static resource was removed after registration', async () => {
    await resource('local/shared-config');
    const tool = await importReference('static');
    bindery.registry.removeResource('local/shared-config', { force: true });
    const { results } = resolveError(tool, project());
    expect(results[0]?.error).toBe('Resource "local/shared-config" is not in the registry.');
  });

  it('type-checks again at resolution: a resource retyped since registration fails', async () => {
    await resource('local/shared-config');
    const tool = await importReference('static');
    bindery.registry.addType({ name: 'bucket' });
    await bindery.registry.updateResource('local/shared-config', { typeName: 'bucket' });
    const { results } = resolveError(tool, project());
    expect(results[0]?.error).toMatch(/of type bucket, which is not fs-directory/);
  });
});

describe('reference: parameter binding', () => {
  it('is deferred when the caller supplies nothing', async () => {
    const [result] = bindery.bindings.resolve((await importReference('parameter')), project());
    expect([result?.deferred, result?.resourceId]).toEqual([true, null]);
  });

  it('resolves eagerly from target=<resource-name-or-id>', async () => {
    const out = await resource('local/out');
    const tool = await importReference('parameter');
    expect(bindery.bindings.resolve(tool, project(), { target: 'local/out' })[0]?.resourceId).toBe(out.id);
    expect(bindery.bindings.resolve(tool, project('p2'), { target: out.id })[0]?.resourceId).toBe(out.id);
  });

  it('refuses an unknown or incompatible parameter value, and unknown parameter names', async () => {
    const tool = await importReference('parameter');
    const p = project();
    expect(resolveError(tool, p, { target: 'local/missing' }).results[0]?.error).toMatch(/not in the registry/);
    await resource('local/repo', 'git-checkout');
    expect(resolveError(tool, p, { target: 'local/repo' }).results[0]?.error).toMatch(/git-checkout, which is not fs-directory/);
    expect(() => bindery.bindings.resolve(tool, p, { nope: 'x' })).toThrow(/no parameter slot named "nope"\. Its parameter slots are: target/);
  });
});

describe('reference: mixed bindings', () => {
  it('needs local/shared-config registered first, with a clear error', async () => {
    await expect(importReference('mixed')).rejects.toThrow(/mixed\.yaml:10 resource_slots\.1\.static_resource: Static resource "local\/shared-config" is not registered/);
  });

  it('combines contextual, static and a deferred parameter', async () => {
    const cfg = await resource('local/shared-config');
    const repo = await resource('local/app', 'git-checkout');
    const tool = await importReference('mixed');
    const p = project();
    bindery.registry.link(p.name, repo.name);
    const results = bindery.bindings.resolve(tool, p);
    expect(results.map((r) => [r.slotName, r.bindingMode, r.resourceId, r.access, r.deferred])).toEqual([
      ['repo', 'contextual', repo.id, 'read_write', false],
      ['config', 'static', cfg.id, 'read_only', false],
      ['output', 'parameter', null, 'write_only', true],
    ]);
  });

  it('resolves the parameter eagerly when supplied', async () => {
    await resource('local/shared-config');
    const repo = await resource('local/app', 'git-checkout');
    const out = await resource('local/out');
    const tool = await importReference('mixed');
    const p = project();
    bindery.registry.link(p.name, repo.name);
    const results = bindery.bindings.resolve(tool, p, { output: out.name });
    expect(results[2]).toMatchObject({ resourceId: out.id, deferred: false, explanation: { rule: 'parameter: supplied at invocation' } });
  });

  it('reports every failing slot at once', async () => {
    await resource('local/shared-config');
    const tool = await importReference('mixed');
    bindery.registry.removeResource('local/shared-config', { force: true });
    const { error, results } = resolveError(tool, project(), { output: 'local/missing' });
    expect(error.message).toMatch(/^3 of 3 slots of tool "mixed" could not be bound in project "demo":/);
    expect(results.map((r) => r.error !== null)).toEqual([true, true, true]);
  });
});
