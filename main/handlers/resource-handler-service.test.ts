import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BindingResult, BoundResource, Resource, AccessMode } from '../../shared/model.ts';
import { openDatabase } from '../registry/database.ts';
import { SqliteSandboxStore } from '../registry/sandbox-store.ts';
import { insertPlan } from '../registry/plans.ts';
import * as journal from '../sandbox/commit/journal/index.ts';
import { SandboxManager } from '../sandbox/sandbox-manager.ts';
import { RegistryService } from '../services/registry-service.ts';
import { gitRepo, tempDir, writeFiles } from '../testing/fixtures.ts';
import type { HandlerInput, ResourceHandler, SandboxProvider } from './handler.ts';
import { clearHandlerCache } from './resolve-handler.ts';
import { effectiveStrategy, ResourceHandlerService, widerAccess } from './resource-handler-service.ts';

afterEach(() => clearHandlerCache());

async function setup(loadHandler?: (spec: string) => Promise<ResourceHandler>) {
  const dataDir = tempDir('bindery-data-');
  const db = openDatabase(path.join(dataDir, 'bindery.db'));
  for (const id of ['PLAN1', 'PLAN2', '01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
    // Sandboxes belong to plans (foreign key); PlanService normally makes these rows.
    const at = new Date().toISOString();
    insertPlan(db, { id, toolId: 'T', toolName: 'tool', projectId: 'P', projectName: 'demo', params: {}, status: 'provisioning', error: null, createdAt: at, updatedAt: at });
  }
  const registry = new RegistryService(db);
  const sandboxes = new SandboxManager({ store: new SqliteSandboxStore(db), dataDir, journal });
  const handlersDir = path.join(dataDir, 'handlers');
  fs.mkdirSync(handlersDir);
  const service = new ResourceHandlerService({
    sandboxManager: sandboxes,
    resourceLookup: (id) => registry.showResource(id),
    typeLookup: (name) => registry.showType(name),
    handlersDir,
    loadHandler,
  });
  return { dataDir, db, registry, sandboxes, service, handlersDir };
}

function binding(slotName: string, resource: Resource | null, access: AccessMode = 'read_write', extra: Partial<BindingResult> = {}): BindingResult {
  return {
    slotName,
    bindingMode: 'contextual',
    resourceId: resource?.id ?? null,
    resourceType: resource?.typeName ?? 'fs-directory',
    access,
    required: true,
    deferred: false,
    error: null,
    explanation: { candidates: [], rule: 'test', summary: 'test', fix: null },
    ...extra,
  };
}

describe('effectiveStrategy and widerAccess', () => {
  it('takes the resource override, then the type default, then a copy, never none by default', () => {
    expect(effectiveStrategy({ sandboxStrategy: 'none' }, { sandboxStrategy: 'git_worktree' })).toBe('none');
    expect(effectiveStrategy({ sandboxStrategy: null }, { sandboxStrategy: 'copy_on_write' })).toBe('copy_on_write');
    expect(effectiveStrategy({ sandboxStrategy: null }, null)).toBe('copy_on_write');
  });

  it('widens two accesses to the one that allows both', () => {
    expect(widerAccess('read_only', 'read_only')).toBe('read_only');
    expect(widerAccess('read_only', 'read_write')).toBe('read_write');
    expect(widerAccess('write_only', 'read_only')).toBe('read_write');
    expect(widerAccess('write_only', 'write_only')).toBe('write_only');
  });
});

describe('ResourceHandlerService with the built-in handlers', () => {
  it('provisions a git-checkout through GitCheckoutHandler as a git worktree', async () => {
    const { registry, service, sandboxes } = await setup();
    const repo = gitRepo({ 'a.txt': 'hello\n' });
    const resource = await registry.addResource({ name: 'local/app', typeName: 'git-checkout', location: repo });
    const bound = await service.resolveBinding(binding('repo', resource), 'PLAN1');
    expect(bound).toMatchObject({ slotName: 'repo', resourceId: resource.id, resourceType: 'git-checkout', access: 'read_write' });
    expect(fs.readFileSync(path.join(bound.sandboxPath, 'a.txt'), 'utf8')).toBe('hello\n');
    const [sandbox] = sandboxes.planSandboxes('PLAN1');
    expect(sandbox).toMatchObject({ strategy: 'git_worktree', handler: 'cleveragents.resource.handlers.git_checkout:GitCheckoutHandler', handlerFailure: null, slotNames: ['repo'] });
  });

  it('honours a per-resource strategy over the type default', async () => {
    const { registry, service, sandboxes } = await setup();
    const repo = gitRepo();
    const resource = await registry.addResource({ name: 'local/app', typeName: 'git-checkout', location: repo, sandboxStrategy: 'copy_on_write' });
    await service.resolveBinding(binding('repo', resource), 'PLAN1');
    expect(sandboxes.planSandboxes('PLAN1')[0]).toMatchObject({ requestedStrategy: 'copy_on_write', strategy: 'copy_on_write' });
  });

  it('uses the default handler with the type strategy when the type has no handler, none included', async () => {
    const { registry, service, sandboxes } = await setup();
    registry.addType({ name: 'notes', sandboxStrategy: 'copy_on_write' });
    registry.addType({ name: 'live', sandboxStrategy: 'none' });
    const notes = await registry.addResource({ name: 'local/notes', typeName: 'notes', location: tempDir() });
    const liveDir = tempDir();
    const live = await registry.addResource({ name: 'local/live', typeName: 'live', location: liveDir });
    await service.resolveBinding(binding('notes', notes), 'PLAN1');
    const bound = await service.resolveBinding(binding('live', live), 'PLAN1');
    expect(bound.sandboxPath).toBe(liveDir);
    const byName = Object.fromEntries(sandboxes.planSandboxes('PLAN1').map((s) => [s.resourceName, s]));
    expect(byName['local/notes']).toMatchObject({ strategy: 'copy_on_write', handler: null, handlerFailure: null });
    expect(byName['local/live']).toMatchObject({ strategy: 'none', path: liveDir });
  });

  it('refuses a resource whose type is not registered, provisioning nothing, instead of working in place', async () => {
    const { db, registry, service, sandboxes } = await setup();
    registry.addType({ name: 'notes', sandboxStrategy: 'copy_on_write' });
    const location = tempDir();
    writeFiles(location, { 'a.txt': 'a\n' });
    const notes = await registry.addResource({ name: 'local/notes', typeName: 'notes', location });
    // The type row gone from under its resource, as a database edited by hand or restored in part leaves it.
    db.pragma('foreign_keys = OFF');
    db.prepare('DELETE FROM resource_types WHERE name = ?').run('notes');
    db.pragma('foreign_keys = ON');
    await expect(service.resolveBinding(binding('notes', notes), 'PLAN1')).rejects.toMatchObject({
      code: 'validation_error',
      message: "Resource local/notes has type notes, which is not registered: add the type or change the resource's type.",
    });
    expect(sandboxes.planSandboxes('PLAN1')).toEqual([]);
    expect(fs.readdirSync(location)).toEqual(['a.txt']);
  });

  it('is idempotent: the same (plan, resource) gives the same sandbox', async () => {
    const { registry, service, sandboxes } = await setup();
    const resource = await registry.addResource({ name: 'local/dir', typeName: 'fs-directory', location: tempDir() });
    const first = await service.resolveBinding(binding('dir', resource), 'PLAN1');
    const again = await service.resolveBinding(binding('dir', resource), 'PLAN1');
    expect(again.sandboxPath).toBe(first.sandboxPath);
    expect(sandboxes.planSandboxes('PLAN1')).toHaveLength(1);
  });
});

describe('ResourceHandlerService with custom handlers', () => {
  const COUNTING_HANDLER = `
export class CountingHandler {
  async resolve({ resource, planId, slotName, sandboxManager, access }) {
    globalThis.__binderyCustomCalls = (globalThis.__binderyCustomCalls ?? 0) + 1;
    const sandbox = await sandboxManager.getOrCreateSandbox({
      planId, resourceId: resource.id, originalPath: resource.location, sandboxStrategy: 'copy_on_write',
    });
    return { slotName, resourceId: resource.id, resourceType: resource.typeName, sandboxPath: sandbox.context.sandboxPath, access };
  }
}`;

  it('loads a handler module from <data dir>/handlers and lets it provision', async () => {
    const { registry, service, sandboxes, handlersDir } = await setup();
    writeFiles(handlersDir, { 'counting.mjs': COUNTING_HANDLER });
    registry.addType({ name: 'special', handler: 'counting.mjs:CountingHandler' });
    const original = tempDir();
    writeFiles(original, { 'x.txt': 'x' });
    const resource = await registry.addResource({ name: 'local/special', typeName: 'special', location: original });
    const before = (globalThis as { __binderyCustomCalls?: number }).__binderyCustomCalls ?? 0;
    const bound = await service.resolveBinding(binding('thing', resource, 'read_only'), 'PLAN1');
    expect((globalThis as { __binderyCustomCalls?: number }).__binderyCustomCalls).toBe(before + 1);
    expect(fs.readFileSync(path.join(bound.sandboxPath, 'x.txt'), 'utf8')).toBe('x');
    // The handler did not pass access: the service applied the slot's.
    expect(sandboxes.planSandboxes('PLAN1')[0]).toMatchObject({ strategy: 'copy_on_write', access: 'read_only', handler: 'counting.mjs:CountingHandler', handlerFailure: null });
  });

  it.each([
    ['missing', 'absent.mjs:Nope', {}, /handler absent\.mjs:Nope failed to load: .*was not found.*; default used/],
    ['throwing', 'boom.mjs:Boom', { 'boom.mjs': 'throw new Error("broken on import");' }, /failed to load: .*broken on import.*; default used/],
    ['outside the folder', '../outside.mjs:CountingHandler', {}, /failed to load: .*outside the handlers folder.*; default used/],
  ])('falls back to the default handler when the handler is %s, and records why on the sandbox', async (_label, spec, files, expected) => {
    const { registry, service, sandboxes, handlersDir, dataDir } = await setup();
    writeFiles(handlersDir, files as Record<string, string>);
    writeFiles(dataDir, { 'outside.mjs': COUNTING_HANDLER });
    registry.addType({ name: 'special', handler: spec, sandboxStrategy: 'copy_on_write' });
    const resource = await registry.addResource({ name: 'local/special', typeName: 'special', location: tempDir() });
    const bound = await service.resolveBinding(binding('thing', resource), 'PLAN1');
    const [sandbox] = sandboxes.planSandboxes('PLAN1');
    expect(sandbox?.handlerFailure).toMatch(expected);
    expect(sandbox).toMatchObject({ strategy: 'copy_on_write', path: bound.sandboxPath });
  });

  it('names the handler when it fails while provisioning, and refuses a result without a sandbox path', async () => {
    const { registry, service } = await setup(async (spec) =>
      spec === 'bad.mjs:Throws'
        ? { resolve: () => Promise.reject(new Error('disk on fire')) }
        : { resolve: async ({ slotName, resource }) => ({ slotName, resourceId: resource.id, resourceType: resource.typeName, sandboxPath: '', access: 'read_only' as const }) },
    );
    registry.addType({ name: 'bad', handler: 'bad.mjs:Throws' });
    registry.addType({ name: 'empty', handler: 'empty.mjs:Empty' });
    const bad = await registry.addResource({ name: 'local/bad', typeName: 'bad', location: tempDir() });
    const empty = await registry.addResource({ name: 'local/empty', typeName: 'empty', location: tempDir() });
    await expect(service.resolveBinding(binding('b', bad), 'PLAN1')).rejects.toThrow('handler bad.mjs:Throws failed while provisioning slot "b" (local/bad): disk on fire');
    await expect(service.resolveBinding(binding('e', empty), 'PLAN1')).rejects.toThrow(/handler empty\.mjs:Empty returned no sandboxPath/);
  });

  it("runs the reference's MyHandler example as written, translated to TypeScript", async () => {
    // From reference/resource_handlers.md, "Writing Custom Handlers".
    class MyHandler implements ResourceHandler {
      async resolve({ resource, planId, slotName, sandboxManager, access = 'read_only' }: HandlerInput): Promise<BoundResource> {
        // Custom validation / setup
        const sandbox = await sandboxManager.getOrCreateSandbox({
          planId: planId,
          resourceId: resource.id,
          originalPath: resource.location,
          sandboxStrategy: 'copy_on_write',
        });
        return {
          slotName: slotName,
          resourceId: resource.id,
          resourceType: resource.typeName,
          sandboxPath: sandbox.context ? sandbox.context.sandboxPath : '',
          access: access,
        };
      }
    }
    const { registry, service } = await setup(async (spec) => {
      if (spec === 'cleveragents.resource.handlers.my_handler:MyHandler') return new MyHandler();
      throw new Error(`unknown ${spec}`);
    });
    registry.addType({ name: 'my-type', handler: 'cleveragents.resource.handlers.my_handler:MyHandler' });
    const original = tempDir();
    writeFiles(original, { 'data.csv': 'a,b\n' });
    const resource = await registry.addResource({ name: 'local/mine', typeName: 'my-type', location: original });
    const bindings = await service.resolveBindings([binding('mine', resource, 'read_only')], '01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(bindings).toEqual({
      mine: { slotName: 'mine', resourceId: resource.id, resourceType: 'my-type', sandboxPath: expect.stringContaining('01ARZ3NDEKTSV4RRFFQ69G5FAV'), access: 'read_only' },
    });
    expect(fs.readFileSync(path.join(bindings.mine!.sandboxPath, 'data.csv'), 'utf8')).toBe('a,b\n');

    // It also works when called directly with a SandboxManager, as the reference shows.
    const direct = await new MyHandler().resolve({ resource, planId: 'PLAN2', slotName: 'mine', sandboxManager: (await setup()).sandboxes as SandboxProvider });
    expect(direct.access).toBe('read_only');
    expect(fs.existsSync(path.join(direct.sandboxPath, 'data.csv'))).toBe(true);
  });
});

describe('resolveBindings', () => {
  it('shares one sandbox between two slots of a resource, with the wider access', async () => {
    const { registry, service, sandboxes } = await setup();
    const original = tempDir();
    writeFiles(original, { 'f.txt': 'f' });
    const resource = await registry.addResource({ name: 'local/dir', typeName: 'fs-directory', location: original });
    const bound = await service.resolveBindings([binding('reader', resource, 'read_only'), binding('writer', resource, 'read_write')], 'PLAN1');
    expect(bound.reader?.sandboxPath).toBe(bound.writer?.sandboxPath);
    expect(bound.reader?.access).toBe('read_only');
    const all = sandboxes.planSandboxes('PLAN1');
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ access: 'read_write', slotNames: ['reader', 'writer'] });
    fs.writeFileSync(path.join(bound.writer!.sandboxPath, 'f.txt'), 'changed');
  });

  it('refuses deferred parameter slots before provisioning anything, naming them all', async () => {
    const { registry, service, sandboxes } = await setup();
    const resource = await registry.addResource({ name: 'local/dir', typeName: 'fs-directory', location: tempDir() });
    const deferred = (name: string) => binding(name, null, 'read_write', { bindingMode: 'parameter', deferred: true });
    await expect(service.resolveBindings([binding('dir', resource), deferred('target'), deferred('output')], 'PLAN1')).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringMatching(/"target", "output" have no value: choose a resource for each before provisioning\.$/),
      details: { hints: [{ action: 'give-params', slots: ['target', 'output'] }] },
    });
    expect(sandboxes.planSandboxes('PLAN1')).toEqual([]);
  });

  it('leaves optional unbound slots out', async () => {
    const { registry, service } = await setup();
    const resource = await registry.addResource({ name: 'local/dir', typeName: 'fs-directory', location: tempDir() });
    const bound = await service.resolveBindings([binding('dir', resource), binding('extra', null, 'read_only', { required: false })], 'PLAN1');
    expect(Object.keys(bound)).toEqual(['dir']);
  });
});
