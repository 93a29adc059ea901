import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiResult, MethodName, MethodOutput } from '../../../shared/contract.ts';
import type { EventMessage } from '../../../shared/events.ts';
import { git, gitRepo } from '../../testing/fixtures.ts';
import { freshBindery } from '../../testing/registry.ts';
import { createApi } from '../api.ts';
import type { Bindery } from '../bindery.ts';
import { createDispatcher, type Dispatch } from '../dispatch.ts';
import { EventBus } from '../event-bus.ts';
import type { PlansApiContext } from './plans-api.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const TOOL = `name: editor
description: appends a line and writes a binary file
run: printf 'new line\\n' >> README.md && printf '\\000\\001' > data.bin && echo done
resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
`;

let bindery: Bindery;
let dispatch: Dispatch;
let seen: EventMessage[];
let repo: string;

beforeEach(async () => {
  bindery = freshBindery();
  const events = new EventBus();
  seen = [];
  events.on((message) => seen.push(message));
  const context: PlansApiContext = { bindery, host: 'web', events };
  dispatch = createDispatcher(createApi(context));
  repo = gitRepo({ 'README.md': '# demo\n', 'logo.png': PNG.toString('latin1') });
  fs.writeFileSync(path.join(repo, 'logo.png'), PNG);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'logo');
  await call('addResource', { name: 'local/app', typeName: 'git-checkout', location: repo });
  await call('addProject', { name: 'demo' });
  await call('linkResource', { project: 'demo', resource: 'local/app' });
  await call('importTools', { text: TOOL, fileName: 'editor.yaml' });
});
afterEach(() => bindery.close());

async function call<M extends MethodName>(method: M, input: unknown = {}): Promise<MethodOutput<M>> {
  const result = await dispatch(method, input);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
  return result.value as MethodOutput<M>;
}

async function failure(
  method: MethodName,
  input: unknown,
): Promise<Extract<ApiResult, { ok: false }>['error']> {
  const result = await dispatch(method, input);
  if (result.ok) throw new Error(`${method} unexpectedly succeeded`);
  return result.error;
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function readyPlan(): Promise<{ planId: string; sandboxId: string }> {
  const started = await call('createPlan', { tool: 'editor', project: 'demo' });
  expect(started.operationId).toBe(`plan:${started.planId}`);
  const view = await until(
    () => call('showPlan', { plan: started.planId }),
    (v) => v.plan.status !== 'provisioning',
  );
  expect(view.plan.status).toBe('ready');
  return { planId: started.planId, sandboxId: view.sandboxes[0]!.id };
}

async function runEditor(planId: string): Promise<void> {
  const run = await call('runTool', { plan: planId });
  expect(run.status).toBe('running');
  const ended = await until(
    () => call('showRun', { runId: run.id }),
    (r) => r.status !== 'running',
  );
  expect(ended.status).toBe('exited');
  expect(ended.exitCode).toBe(0);
  expect(ended.output.map((c) => c.text).join('')).toContain('done');
}

describe('plans through the API', () => {
  it('provisions in the background, runs the tool with streamed output, and reviews its changes', async () => {
    const { planId, sandboxId } = await readyPlan();
    const view = await call('showPlan', { plan: planId });
    expect(view.toolRun).toContain('printf');
    expect(view.provisioning).toBeNull();
    expect(view.sandboxes[0]).not.toHaveProperty('context');
    expect(view.bound.map((b) => b.slotName)).toEqual(['repo']);

    await runEditor(planId);
    expect(seen.some((m) => m.event === 'runOutput' && m.payload.text.includes('done'))).toBe(true);
    expect(seen.filter((m) => m.event === 'runChanged').map((m) => m.payload.status)).toEqual([
      'running',
      'exited',
    ]);
    expect((await call('showPlan', { plan: planId })).lastRun?.status).toBe('exited');

    const [list] = await call('planChanges', { plan: planId });
    expect(list?.changes.map((c) => [c.path, c.kind, c.binary])).toEqual([
      ['README.md', 'modified', false],
      ['data.bin', 'added', true],
    ]);
    const text = await call('fileDiff', { plan: planId, sandbox: sandboxId, path: 'README.md' });
    expect([text.oldText, text.newText, text.status, text.against]).toEqual([
      '# demo\n',
      '# demo\nnew line\n',
      'modified',
      'base',
    ]);
    const binary = await call('fileDiff', { plan: planId, sandbox: 'local/app', path: 'data.bin' });
    expect([binary.binary, binary.oldSize, binary.newSize, binary.newText]).toEqual([true, null, 2, null]);

    const sandboxPath = view.sandboxes[0]!.path;
    fs.writeFileSync(path.join(sandboxPath, 'logo.png'), Buffer.concat([PNG, Buffer.from([0])]));
    const image = await call('fileDiff', { plan: planId, sandbox: sandboxId, path: 'logo.png' });
    expect(image.oldImageUrl).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    expect(image.newImageUrl?.startsWith('data:image/png;base64,')).toBe(true);
  });

  it('commits a subset, undoes it, and resolves a conflict made in the original meanwhile', async () => {
    const { planId, sandboxId } = await readyPlan();
    await runEditor(planId);

    const [report] = await call('commitSandbox', { plan: planId, sandbox: sandboxId, paths: ['README.md'] });
    expect(report?.committed).toBe(true);
    expect(report?.written).toEqual(['README.md']);
    expect(report?.summary).toBe('local/app: wrote 1 file (README.md).');
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# demo\nnew line\n');
    expect(fs.existsSync(path.join(repo, 'data.bin'))).toBe(false);
    expect((await call('showPlan', { plan: planId })).plan.status).toBe('partially_committed');

    const undo = await call('undoCommit', { plan: planId, sandbox: sandboxId });
    expect(undo.summary).toContain('restored 1 file in the original (README.md)');
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# demo\n');

    fs.writeFileSync(path.join(repo, 'README.md'), '# demo, edited by hand\n');
    const [readme] = (await call('planChanges', { plan: planId }))[0]!.changes;
    expect(readme?.drift).toBe('conflict');
    const conflict = await failure('commitSandbox', { plan: planId, sandbox: sandboxId });
    expect(conflict.code).toBe('conflict');
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# demo, edited by hand\n');
    const side = await call('fileDiff', {
      plan: planId,
      sandbox: sandboxId,
      path: 'README.md',
      against: 'original',
    });
    expect([side.oldText, side.against, side.drift]).toEqual([
      '# demo, edited by hand\n',
      'original',
      'conflict',
    ]);

    const reports = await call('commitPlan', { plan: planId, resolutions: { 'README.md': 'ours' } });
    expect(reports[0]?.summary).toMatch(
      /^local\/app: wrote 1 file \(data\.bin\)\. Skipped 1 file \(README\.md\)/,
    );
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# demo, edited by hand\n');
    expect(fs.readFileSync(path.join(repo, 'data.bin'))).toEqual(Buffer.from([0, 1]));
  });

  it('commits on the git branch with a message when asked', async () => {
    const { planId, sandboxId } = await readyPlan();
    await runEditor(planId);
    const [report] = await call('commitSandbox', {
      plan: planId,
      sandbox: sandboxId,
      gitMessage: 'Apply the editor',
    });
    expect(report?.gitCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(report?.summary).toContain('Created git commit');
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Apply the editor');
  });

  it('discards with a counts confirmation into the trash, restores it, and logs the activity', async () => {
    const { planId, sandboxId } = await readyPlan();
    await runEditor(planId);
    const asked = await call('discardSandbox', { plan: planId, sandbox: sandboxId });
    expect(asked.map((r) => [r.outcome, r.counts?.total])).toEqual([['needs_confirmation', 2]]);
    expect(asked[0]?.summary).toBe(
      'local/app has 2 changes (1 added, 1 modified): confirm to move them to the trash (recoverable).',
    );
    expect((await call('showPlan', { plan: planId })).sandboxes[0]?.status).toBe('ready');

    const done = await call('discardPlan', { plan: planId, confirm: true });
    expect(done[0]?.outcome).toBe('discarded');
    expect(done[0]?.summary).toContain('are in the trash and can be restored');
    expect((await call('showPlan', { plan: planId })).plan.status).toBe('discarded');

    const trash = await call('listTrash');
    expect(trash.map((t) => [t.planId, t.counts.total])).toEqual([[planId, 2]]);
    const restored = await call('restoreTrash', { id: trash[0]!.id });
    expect(restored.status).toBe('ready');
    expect((await call('planChanges', { plan: planId }))[0]?.changes).toHaveLength(2);

    const kinds = (await call('activity', { plan: planId })).map((a) => a.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['plan.created', 'plan.ready', 'run.started', 'run.exited', 'plan.discarded']),
    );
  });

  it('filters plans, refuses bad input at the boundary, and explains what the web host cannot do', async () => {
    const { planId, sandboxId } = await readyPlan();
    expect((await call('listPlans', { tool: 'editor', status: 'ready' })).map((p) => p.id)).toEqual([planId]);
    expect(await call('listPlans', { project: 'elsewhere' })).toEqual([]);
    expect((await failure('fileDiff', { plan: planId, sandbox: sandboxId, path: '../outside' })).code).toBe(
      'validation_error',
    );
    expect((await failure('fileDiff', { plan: planId, sandbox: sandboxId, path: '/etc/passwd' })).code).toBe(
      'validation_error',
    );
    expect((await failure('fileDiff', { plan: planId, sandbox: 'nope', path: 'README.md' })).code).toBe(
      'not_found',
    );
    expect((await failure('fileDiff', { plan: planId, sandbox: sandboxId, path: 'README.md' })).code).toBe(
      'not_found',
    );
    const reveal = await failure('revealSandbox', { plan: planId, sandbox: sandboxId });
    expect([reveal.code, reveal.message]).toEqual([
      'usage',
      expect.stringContaining('Copy the path instead'),
    ]);
    expect(await call('cancelPlan', { plan: planId })).toEqual({ cancelled: false });
    expect((await call('watchPlan', { plan: planId })).watching).toBe(1);
  });

  it('refuses to start a plan whose slots do not bind, with the reason, and creates nothing', async () => {
    await call('unlinkResource', { project: 'demo', resource: 'local/app' });
    const error = await failure('createPlan', { tool: 'editor', project: 'demo' });
    expect([error.code, error.message]).toEqual(['validation_error', expect.stringContaining('slot "repo"')]);
    expect(await call('listPlans')).toEqual([]);
  });
});
