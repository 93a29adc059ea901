import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiResult, MethodName, MethodOutput } from '../../shared/contract.ts';
import type { EventMessage } from '../../shared/events.ts';
import { git, gitRepo, tempDir, writeFiles } from '../testing/fixtures.ts';
import { freshBindery } from '../testing/registry.ts';
import { startApiRuntime, type ApiRuntime } from './api-runtime.ts';
import type { Bindery } from './bindery.ts';

let bindery: Bindery;
let runtime: ApiRuntime;
let seen: EventMessage[];

beforeEach(() => {
  bindery = freshBindery();
  runtime = startApiRuntime({ bindery, host: 'web', pollMs: 60_000 });
  seen = [];
  runtime.events.on((message) => seen.push(message));
});
afterEach(() => {
  runtime.stop();
  bindery.close();
});

/** Calls through the dispatcher, as both hosts do, and returns the value or fails the test. */
async function call<M extends MethodName>(method: M, input: unknown = {}): Promise<MethodOutput<M>> {
  const result = await runtime.dispatch(method, input);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
  return result.value as MethodOutput<M>;
}

async function failure(method: MethodName, input: unknown): Promise<Extract<ApiResult, { ok: false }>['error']> {
  const result = await runtime.dispatch(method, input);
  if (result.ok) throw new Error(`${method} unexpectedly succeeded`);
  return result.error;
}

const MIXED = fs.readFileSync(path.join(import.meta.dirname, '../testing/reference/mixed.yaml'), 'utf8');

describe('the API object through the dispatcher', () => {
  it('manages types and reports registry changes from the app', async () => {
    const added = await call('addType', { name: 'docs-dir', parentTypes: ['fs-directory'], sandboxStrategy: 'copy_on_write' });
    expect(added.builtIn).toBe(false);
    expect((await call('updateType', { name: 'docs-dir', description: 'docs' })).description).toBe('docs');
    expect((await call('listTypes')).map((t) => t.name)).toContain('docs-dir');
    expect((await call('removeType', { name: 'docs-dir' })).name).toBe('docs-dir');
    expect(seen).toContainEqual({ event: 'registryChanged', payload: { areas: ['types'], source: 'app' } });
    expect((await failure('removeType', { name: 'git-checkout' })).code).toBe('validation_error');
  });

  it('registers, lists with projects, updates and removes resources', async () => {
    const repo = gitRepo();
    const dir = tempDir();
    const app = await call('addResource', { name: 'local/app', typeName: 'git-checkout', location: repo });
    await call('addResource', { name: 'local/notes', typeName: 'fs-directory', location: dir, description: 'notes' });
    await call('addProject', { name: 'demo' });
    await call('linkResource', { project: 'demo', resource: 'local/app', alias: 'repo' });
    const list = await call('listResources');
    expect(list.map((r) => [r.name, r.projects])).toEqual([
      ['local/app', ['demo']],
      ['local/notes', []],
    ]);
    expect((await call('showResource', { ref: app.id })).projects).toEqual(['demo']);
    expect((await call('updateResource', { ref: 'local/notes', sandboxStrategy: 'none' })).sandboxStrategy).toBe('none');
    expect((await call('updateResource', { ref: 'local/notes', sandboxStrategy: null })).sandboxStrategy).toBeNull();
    expect((await failure('removeResource', { ref: 'local/app' })).code).toBe('conflict');
    const removed = await call('removeResource', { ref: 'local/app', force: true });
    expect(removed.unlinkedFrom).toEqual(['demo']);
    const gitError = await failure('addResource', { name: 'local/plain', typeName: 'git-checkout', location: dir });
    expect(gitError.message).toMatch(/fs-directory/);
  });

  it('inspects folders for the register dialog', async () => {
    const repo = gitRepo();
    const sub = path.join(repo, 'packages', 'web');
    fs.mkdirSync(sub, { recursive: true });
    const gitInfo = await call('inspectFolder', { path: repo });
    expect(gitInfo).toMatchObject({ path: repo, exists: true, isDirectory: true, gitRoot: repo, suggestedType: 'git-checkout' });
    expect(gitInfo.suggestedName).toBe(`local/${path.basename(repo)}`);
    await call('addResource', { name: gitInfo.suggestedName, typeName: 'git-checkout', location: repo });
    expect((await call('inspectFolder', { path: repo })).suggestedName).toBe(`${gitInfo.suggestedName}-2`);
    expect(await call('inspectFolder', { path: sub })).toMatchObject({ gitRoot: repo, suggestedType: 'fs-directory', suggestedName: 'local/web' });
    const missing = await call('inspectFolder', { path: path.join(repo, 'nope') });
    expect(missing).toMatchObject({ exists: false, isDirectory: false, suggestedName: 'local/nope' });
    const file = path.join(repo, 'README.md');
    expect(await call('inspectFolder', { path: file })).toMatchObject({ exists: true, isDirectory: false, gitRoot: null });
    expect((await failure('inspectFolder', { path: 'relative/dir' })).message).toMatch(/absolute path/);
  });

  it('reports live statuses: branch, dirty count, missing location', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    git(repo, 'checkout', '-q', '-b', 'feature');
    writeFiles(repo, { 'a.txt': 'changed\n', 'new.txt': 'new\n' });
    const gone = tempDir();
    const plain = tempDir();
    const app = await call('addResource', { name: 'local/app', typeName: 'git-checkout', location: repo });
    const lost = await call('addResource', { name: 'local/gone', typeName: 'fs-directory', location: gone });
    const dir = await call('addResource', { name: 'local/plain', typeName: 'fs-directory', location: plain });
    fs.rmSync(gone, { recursive: true });
    const statuses = await call('resourceStatuses');
    const byId = new Map(statuses.map((s) => [s.resourceId, s]));
    expect(byId.get(app.id)).toMatchObject({ locationMissing: false, gitBranch: 'feature', dirtyCount: 2, problem: null });
    expect(byId.get(lost.id)).toMatchObject({ locationMissing: true, gitBranch: null, dirtyCount: null });
    expect(byId.get(dir.id)).toMatchObject({ locationMissing: false, gitBranch: null, dirtyCount: null });
    expect((await call('resourceStatuses', { ids: [app.id] })).map((s) => s.resourceId)).toEqual([app.id]);
  });

  it('manages projects and links', async () => {
    const dir = tempDir();
    await call('addResource', { name: 'local/notes', typeName: 'fs-directory', location: dir });
    const project = await call('addProject', { name: 'demo', description: 'd' });
    expect((await call('updateProject', { ref: project.id, name: 'demo2' })).name).toBe('demo2');
    expect((await call('linkResource', { project: 'demo2', resource: 'local/notes', alias: 'docs' })).links[0]?.alias).toBe('docs');
    expect((await call('linkResource', { project: 'demo2', resource: 'local/notes', alias: null })).links[0]?.alias).toBeNull();
    expect((await call('listProjects'))[0]?.links).toHaveLength(1);
    expect((await call('showProject', { ref: 'demo2' })).name).toBe('demo2');
    expect((await call('unlinkResource', { project: 'demo2', resource: 'local/notes' })).links).toEqual([]);
    expect((await call('removeProject', { ref: 'demo2' })).name).toBe('demo2');
    expect((await failure('showProject', { ref: 'demo2' })).code).toBe('not_found');
  });

  it('validates a tool file without writing or announcing a change, at the line of each problem', async () => {
    const report = await call('validateTools', { text: MIXED, fileName: 'mixed.yaml' });
    expect(report.ok).toBe(false);
    expect(report.issues).toEqual([
      expect.objectContaining({ file: 'mixed.yaml', line: 10, field: 'resource_slots.1.static_resource', message: expect.stringMatching(/not registered/) }),
    ]);
    const broken = await call('validateTools', { text: 'name: x\nresource_slots:\n  - name: a\n    resource_type: fs-directory\n    acess: read_only\n', fileName: 'x.yaml' });
    expect(broken.issues[0]).toMatchObject({ line: 5, message: expect.stringMatching(/Unknown field "acess"/) });

    await call('addResource', { name: 'local/shared-config', typeName: 'fs-directory', location: tempDir() });
    seen.length = 0;
    const good = await call('validateTools', { text: MIXED, fileName: 'mixed.yaml' });
    expect(good).toMatchObject({ ok: true, issues: [], tools: [{ name: 'mixed', run: null }] });
    expect(good.tools[0]?.resourceSlots).toHaveLength(3);
    expect(await call('listTools')).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('imports, shows, exports, inspects bindings and removes tools', async () => {
    const repo = gitRepo();
    await call('addResource', { name: 'local/shared-config', typeName: 'fs-directory', location: tempDir() });
    await call('addResource', { name: 'local/app', typeName: 'git-checkout', location: repo });
    await call('addProject', { name: 'demo' });
    await call('linkResource', { project: 'demo', resource: 'local/app' });
    const [tool] = await call('importTools', { text: MIXED, fileName: 'mixed.yaml' });
    expect(tool?.name).toBe('mixed');
    expect((await failure('importTools', { text: MIXED, fileName: 'mixed.yaml' })).message).toMatch(/already registered/);
    expect((await call('showTool', { ref: 'mixed' })).resourceSlots.map((s) => s.binding)).toEqual(['contextual', 'static', 'parameter']);
    const exported = await call('exportTool', { ref: 'mixed' });
    expect(exported).toMatchObject({ name: 'mixed', fileName: 'mixed.yaml' });
    expect(exported.text).toMatch(/static_resource: local\/shared-config/);
    const results = await call('inspectBindings', { tool: 'mixed', project: 'demo' });
    expect(results.map((r) => [r.slotName, r.deferred, r.error])).toEqual([
      ['repo', false, null],
      ['config', false, null],
      ['output', true, null],
    ]);
    const withParam = await call('inspectBindings', { tool: 'mixed', project: 'demo', params: { output: 'local/shared-config' } });
    expect(withParam[2]?.resourceId).not.toBeNull();
    expect((await failure('inspectBindings', { tool: 'mixed', project: 'demo', params: { nope: 'x' } })).message).toMatch(/no parameter slot/);
    expect((await call('removeTool', { ref: 'mixed' })).name).toBe('mixed');
  });

  it('answers doctor and appInfo', async () => {
    const report = await call('doctor');
    expect(report.dataDir).toBe(bindery.dataDir);
    expect(report.checks.map((c) => c.name)).toEqual(['git', 'data directory', 'database', 'interrupted work', 'disk use']);
    const info = await call('appInfo');
    expect(info).toMatchObject({ name: 'Bindery', host: 'web', dataDir: bindery.dataDir, platform: process.platform });
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.schemaVersion).toBeGreaterThan(0);
  });

  it('announces changes made by another process (another connection) when it polls', async () => {
    const other = (await import('./bindery.ts')).openBindery(bindery.dataDir);
    try {
      expect(runtime.watch.check()).toBe(false);
      other.registry.addProject({ name: 'from-cli' });
      expect(runtime.watch.check()).toBe(true);
      expect(seen).toContainEqual({ event: 'registryChanged', payload: { areas: ['types', 'resources', 'projects', 'tools', 'notes'], source: 'external' } });
      expect(runtime.watch.check()).toBe(false);
    } finally {
      other.close();
    }
  });
});
