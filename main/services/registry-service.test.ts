import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { gitRepo, tempDir } from '../testing/fixtures.ts';
import { freshBindery } from '../testing/registry.ts';
import type { Bindery } from './bindery.ts';

let bindery: Bindery;
beforeEach(() => {
  bindery = freshBindery();
});
afterEach(() => bindery.close());

describe('types', () => {
  it('adds a custom type with transitive parents and refuses cycles when saved', () => {
    const registry = bindery.registry;
    registry.addType({ name: 'docs-dir', parentTypes: ['fs-directory'], sandboxStrategy: 'copy_on_write' });
    expect(() => registry.updateType('git-checkout', { parentTypes: ['docs-dir'] })).toThrow(/cycle: git-checkout -> docs-dir -> fs-directory -> git-checkout/);
    expect(registry.showType('git-checkout').parentTypes).toEqual([]);
  });

  it('gives a new type copy_on_write unless another strategy is asked for, and keeps a type\'s strategy on update', () => {
    const registry = bindery.registry;
    expect(registry.addType({ name: 'notes' }).sandboxStrategy).toBe('copy_on_write');
    expect(registry.addType({ name: 'live', sandboxStrategy: 'none' }).sandboxStrategy).toBe('none');
    expect(registry.updateType('live', { description: 'in place on purpose' }).sandboxStrategy).toBe('none');
  });

  it('refuses duplicate, badly named and unknown-parent types', () => {
    const registry = bindery.registry;
    expect(() => registry.addType({ name: 'git-checkout' })).toThrow(ConflictError);
    expect(() => registry.addType({ name: 'Bad_Name' })).toThrow(ValidationError);
    expect(() => registry.addType({ name: 'x', parentTypes: ['nope'] })).toThrow(/Unknown parent type "nope"/);
    expect(() => registry.addType({ name: 'x', handler: 'no colon' })).toThrow(/module:Export/);
  });

  it('lets built-ins change parent types but not handler or strategy, and never be removed', () => {
    const registry = bindery.registry;
    registry.addType({ name: 'base' });
    expect(registry.updateType('git-checkout', { parentTypes: ['base'] }).parentTypes).toEqual(['base']);
    expect(() => registry.updateType('git-checkout', { sandboxStrategy: 'none' })).toThrow(/built in/);
    expect(() => registry.removeType('fs-directory')).toThrow(/built in/);
  });

  it('refuses to remove a type still in use, naming the users', async () => {
    const registry = bindery.registry;
    registry.addType({ name: 'notes' });
    registry.addType({ name: 'sub-notes', parentTypes: ['notes'] });
    await registry.addResource({ name: 'local/n', typeName: 'notes', location: tempDir() });
    expect(() => registry.removeType('notes')).toThrow(/resources local\/n; sub-types sub-notes/);
    expect(() => bindery.registry.showType('nope')).toThrow(NotFoundError);
  });
});

describe('resources', () => {
  it('registers a git checkout at its work-tree root with a ULID and resolved path', async () => {
    const repo = gitRepo();
    const resource = await bindery.registry.addResource({ name: 'local/app', typeName: 'git-checkout', location: repo });
    expect(resource.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(resource.location).toBe(repo);
    expect(bindery.registry.showResource(resource.id).name).toBe('local/app');
    expect(bindery.registry.showResource('local/app').id).toBe(resource.id);
  });

  it('checks the location: missing, a file, not a git root', async () => {
    const registry = bindery.registry;
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'file.txt'), 'x');
    await expect(registry.addResource({ name: 'l/a', typeName: 'fs-directory', location: path.join(dir, 'missing') })).rejects.toThrow(/does not exist/);
    await expect(registry.addResource({ name: 'l/a', typeName: 'fs-directory', location: path.join(dir, 'file.txt') })).rejects.toThrow(/is a file/);
    await expect(registry.addResource({ name: 'l/a', typeName: 'git-checkout', location: dir })).rejects.toThrow(/not a git work tree.*use type fs-directory/);
    const repo = gitRepo({ 'src/a.txt': 'a' });
    await expect(registry.addResource({ name: 'l/a', typeName: 'git-checkout', location: path.join(repo, 'src') })).rejects.toThrow(/not its root: register/);
  });

  it('refuses duplicate names and unknown types', async () => {
    const registry = bindery.registry;
    await registry.addResource({ name: 'local/a', typeName: 'fs-directory', location: tempDir() });
    await expect(registry.addResource({ name: 'local/a', typeName: 'fs-directory', location: tempDir() })).rejects.toThrow(ConflictError);
    await expect(registry.addResource({ name: 'local/b', typeName: 'nope', location: tempDir() })).rejects.toThrow(/no resource type "nope"/);
    await expect(registry.addResource({ name: 'noslash', typeName: 'fs-directory', location: tempDir() })).rejects.toThrow(/namespace\/name/);
  });

  it('warns when the folder is already registered, naming the other resource (issue 22)', async () => {
    const registry = bindery.registry;
    const repo = gitRepo();
    const first = await registry.register({ name: 'local/app', typeName: 'git-checkout', location: repo });
    expect([first.warning, first.sameFolder]).toEqual([null, []]);
    // The same folder through another spelling of its path still counts as the same folder.
    const second = await registry.register({ name: 'local/app-files', typeName: 'fs-directory', location: `${repo}/./` });
    expect(second.resource.location).toBe(repo);
    expect(second.sameFolder).toEqual(['local/app']);
    expect(second.warning).toMatch(/already registered as "local\/app"/);
    const third = await registry.register({ name: 'other/app', typeName: 'fs-directory', location: repo });
    expect(third.warning).toContain('"local/app" and "local/app-files"');
    expect((await registry.register({ name: 'local/else', typeName: 'fs-directory', location: tempDir() })).warning).toBeNull();
  });

  it('updates with the same checks and keeps a per-resource strategy override', async () => {
    const registry = bindery.registry;
    const resource = await registry.addResource({ name: 'local/a', typeName: 'fs-directory', location: tempDir(), sandboxStrategy: 'none' });
    expect(resource.sandboxStrategy).toBe('none');
    const renamed = await registry.updateResource('local/a', { name: 'team/a', sandboxStrategy: null });
    expect([renamed.name, renamed.sandboxStrategy]).toEqual(['team/a', null]);
    await expect(registry.updateResource('team/a', { typeName: 'git-checkout' })).rejects.toThrow(/not a git work tree/);
  });

  it('guards removal while linked or used statically, and names the dependents when forced', async () => {
    const registry = bindery.registry;
    const cfg = await registry.addResource({ name: 'local/shared-config', typeName: 'fs-directory', location: tempDir() });
    registry.addProject({ name: 'demo' });
    registry.link('demo', cfg.name);
    await registry.importTools('name: t\nresource_slots:\n  - name: config\n    resource_type: fs-directory\n    binding: static\n    static_resource: local/shared-config\n', 't.yaml');
    expect(() => registry.removeResource(cfg.name)).toThrow(/used by projects demo; tools \(static slots\) t.*remove it anyway \(the links go/);
    const removed = registry.removeResource(cfg.name, { force: true });
    expect(removed.unlinkedFrom).toEqual(['demo']);
    expect(removed.staticIn).toEqual(['t']);
    expect(registry.showProject('demo').links).toEqual([]);
    expect(fs.existsSync(cfg.location)).toBe(true);
  });
});

describe('projects', () => {
  it('links with aliases unique within a project and updates an alias in place', async () => {
    const registry = bindery.registry;
    const a = await registry.addResource({ name: 'local/a', typeName: 'fs-directory', location: tempDir() });
    const b = await registry.addResource({ name: 'local/b', typeName: 'fs-directory', location: tempDir() });
    registry.addProject({ name: 'p1' });
    registry.addProject({ name: 'p2' });
    registry.link('p1', a.name, 'repo');
    expect(() => registry.link('p1', b.name, 'repo')).toThrow(/already used in project "p1" by local\/a/);
    registry.link('p2', b.name, 'repo');
    registry.link('p1', a.name, 'main');
    expect(registry.showProject('p1').links.map((l) => [l.resource.name, l.alias])).toEqual([['local/a', 'main']]);
    expect(() => registry.link('p1', b.name, 'bad alias')).toThrow(/alias/);
    expect(() => registry.addProject({ name: 'p1' })).toThrow(ConflictError);
    registry.unlink('p1', a.name);
    expect(() => registry.unlink('p1', a.name)).toThrow(/not linked/);
    expect(registry.removeProject('p2').links).toHaveLength(1);
    expect(registry.showResource('local/b').name).toBe('local/b');
  });
});

describe('tools', () => {
  it('refuses a duplicate tool unless replacing, and reports unknown types at their line', async () => {
    const registry = bindery.registry;
    const text = 'name: t\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n';
    const [first] = await registry.importTools(text, 't.yaml');
    await expect(registry.importTools(text, 't.yaml')).rejects.toThrow(/already registered: import it with Replace to update it/);
    const [second] = await registry.importTools(text.replace('git-checkout', 'fs-directory'), 't.yaml', { replace: true });
    expect(second?.id).toBe(first?.id);
    expect(registry.showTool('t').resourceSlots[0]?.resourceType).toBe('fs-directory');
    await expect(registry.importTools('name: u\nresource_slots:\n  - name: x\n    resource_type: mystery\n', 'u.yaml')).rejects.toThrow(
      /u\.yaml:4 resource_slots\.0\.resource_type: Unknown resource type "mystery"/,
    );
  });

  it('refuses a static resource of an incompatible type', async () => {
    const registry = bindery.registry;
    await registry.addResource({ name: 'local/repo', typeName: 'git-checkout', location: gitRepo() });
    const text = 'name: t\nresource_slots:\n  - name: cfg\n    resource_type: fs-directory\n    binding: static\n    static_resource: local/repo\n';
    await expect(registry.importTools(text, 't.yaml')).rejects.toThrow(/t\.yaml:6 .*of type git-checkout, which does not satisfy fs-directory/);
    expect(registry.listTools()).toEqual([]);
  });

  it('writes nothing when one tool of a list fails', async () => {
    const text = 'tools:\n  - name: ok\n  - name: bad\n    resource_slots:\n      - name: x\n        resource_type: mystery\n';
    await expect(bindery.registry.importTools(text, 'list.yaml')).rejects.toThrow(/list\.yaml:6/);
    expect(bindery.registry.listTools()).toEqual([]);
  });
});
