import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MethodName, MethodOutput } from '../../shared/contract.ts';
import type { ReviewScope } from '../../shared/review-dto.ts';
import { git, gitRepo, tempDir, writeFiles } from '../testing/fixtures.ts';
import { freshBindery } from '../testing/registry.ts';
import { createApi } from './api.ts';
import type { Bindery } from './bindery.ts';
import { createDispatcher, type Dispatch } from './dispatch.ts';
import { EventBus } from './event-bus.ts';

// Each run appends a line to a.txt in the worktree and to notes.txt in the copy, and adds run-<n>.txt to both.
const TOOL = `name: editor
run: "n=$(cat \\"$BINDERY_SLOT_REPO/count\\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \\"$BINDERY_SLOT_REPO/count\\"; echo run $n >> \\"$BINDERY_SLOT_REPO/a.txt\\"; echo run $n > \\"$BINDERY_SLOT_REPO/run-$n.txt\\"; echo run $n >> \\"$BINDERY_SLOT_DOCS/notes.txt\\"; echo run $n > \\"$BINDERY_SLOT_DOCS/run-$n.txt\\""
resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
    binding: static
    static_resource: local/app
  - name: docs
    resource_type: fs-directory
    access: read_write
    binding: static
    static_resource: local/docs
`;

let bindery: Bindery;
let dispatch: Dispatch;
let repo: string;

beforeEach(async () => {
  bindery = freshBindery();
  dispatch = createDispatcher(createApi({ bindery, host: 'web', events: new EventBus() }));
  repo = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
  const docs = tempDir();
  writeFiles(docs, { 'notes.txt': 'notes\n', 'keep.txt': 'keep\n' });
  await call('addResource', { name: 'local/app', typeName: 'git-checkout', location: repo });
  await call('addResource', { name: 'local/docs', typeName: 'fs-directory', location: docs });
  await call('addProject', { name: 'demo' });
  await call('linkResource', { project: 'demo', resource: 'local/app' });
  await call('linkResource', { project: 'demo', resource: 'local/docs' });
  await call('importTools', { text: TOOL, fileName: 'editor.yaml' });
});
afterEach(() => bindery.close());

async function call<M extends MethodName>(method: M, input: unknown = {}): Promise<MethodOutput<M>> {
  const result = await dispatch(method, input);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
  return result.value as MethodOutput<M>;
}

async function readyPlan() {
  const { planId } = await call('createPlan', { tool: 'editor', project: 'demo' });
  let view = await call('showPlan', { plan: planId });
  while (view.plan.status === 'provisioning') {
    await new Promise((resolve) => setTimeout(resolve, 20));
    view = await call('showPlan', { plan: planId });
  }
  const worktree = view.sandboxes.find((s) => s.strategy === 'git_worktree')!;
  const copy = view.sandboxes.find((s) => s.strategy === 'copy_on_write')!;
  return { planId, worktree, copy };
}

async function runOnce(planId: string): Promise<void> {
  const run = await call('runTool', { plan: planId });
  let info = await call('showRun', { runId: run.id });
  while (info.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 20));
    info = await call('showRun', { runId: run.id });
  }
  expect(info.status).toBe('exited');
}

const paths = async (planId: string, sandbox: string, scope: ReviewScope) =>
  (await call('planChanges', { plan: planId, sandbox, scope }))[0]!.changes.map((c) => c.path);

describe('viewed marks', () => {
  it.each(['git_worktree', 'copy_on_write'] as const)('go stale when the file changes after the mark (%s)', async (strategy) => {
    const plan = await readyPlan();
    const sandbox = strategy === 'git_worktree' ? plan.worktree : plan.copy;
    const file = strategy === 'git_worktree' ? 'a.txt' : 'notes.txt';
    fs.writeFileSync(path.join(sandbox.path, file), 'first edit\n');
    fs.writeFileSync(path.join(sandbox.path, 'new.txt'), 'new\n');

    const marks = await call('markViewed', { plan: plan.planId, sandbox: sandbox.id, paths: [file, 'new.txt', 'unchanged.txt'], viewed: true });
    expect(marks.map((m) => [m.path, m.stale]).sort()).toEqual([
      [file, false],
      ['new.txt', false],
    ].sort());
    let state = await call('reviewState', { plan: plan.planId, sandbox: sandbox.id });
    expect(state.marks.every((m) => !m.stale)).toBe(true);
    expect(state.lastReviewAt).toBe(marks[0]!.viewedAt);

    // Same size, other bytes: only the content id tells.
    fs.writeFileSync(path.join(sandbox.path, file), 'other edit\n');
    state = await call('reviewState', { plan: plan.planId, sandbox: sandbox.id });
    expect(state.marks.map((m) => [m.path, m.stale]).sort()).toEqual([
      [file, true],
      ['new.txt', false],
    ].sort());

    await call('markViewed', { plan: plan.planId, sandbox: sandbox.id, paths: [file], viewed: true });
    state = await call('reviewState', { plan: plan.planId, sandbox: sandbox.id });
    expect(state.marks.some((m) => m.stale)).toBe(false);
    await call('markViewed', { plan: plan.planId, sandbox: sandbox.id, paths: ['new.txt'], viewed: false });
    expect((await call('reviewState', { plan: plan.planId, sandbox: sandbox.id })).marks.map((m) => m.path)).toEqual([file]);
  });
});

describe('the since-last-review scope', () => {
  it('lists stale marks and files written after the last mark, not fresh marks or older files', async () => {
    const { planId, worktree } = await readyPlan();
    for (const name of ['a.txt', 'b.txt', 'c.txt']) fs.writeFileSync(path.join(worktree.path, name), `${name} edited\n`);
    expect(await paths(planId, worktree.id, { kind: 'since_review' })).toEqual(['a.txt', 'b.txt', 'c.txt']);
    await call('markViewed', { plan: planId, sandbox: worktree.id, paths: ['a.txt', 'b.txt'], viewed: true });
    // c.txt was written before the review and never marked: it is not new since then.
    expect(await paths(planId, worktree.id, { kind: 'since_review' })).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 20));
    fs.writeFileSync(path.join(worktree.path, 'b.txt'), 'b edited again\n');
    fs.writeFileSync(path.join(worktree.path, 'd.txt'), 'new after the review\n');
    fs.rmSync(path.join(worktree.path, 'c.txt'));
    expect(await paths(planId, worktree.id, { kind: 'since_review' })).toEqual(['b.txt', 'c.txt', 'd.txt']);
    const state = await call('reviewState', { plan: planId, sandbox: worktree.id, scope: { kind: 'since_review' } });
    expect(state.scopePaths).toEqual(['b.txt', 'c.txt', 'd.txt']);
    expect(await paths(planId, worktree.id, { kind: 'all' })).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
  });
});

describe('run checkpoints and the run scope', () => {
  it('records a checkpoint of each sandbox at each run start and end, and scopes the list and diff to one run', async () => {
    const { planId, worktree, copy } = await readyPlan();
    fs.writeFileSync(path.join(copy.path, 'keep.txt'), 'keep, edited by hand\n');
    await runOnce(planId);
    fs.writeFileSync(path.join(worktree.path, 'b.txt'), 'b, by hand between runs\n');
    await runOnce(planId);

    for (const sandbox of [worktree, copy]) {
      const state = await call('reviewState', { plan: planId, sandbox: sandbox.id });
      expect(state.runs).toHaveLength(2);
      expect(state.runs.every((r) => r.endedAt !== null && r.endedAt >= r.startedAt)).toBe(true);
    }
    const runs = (await call('reviewState', { plan: planId, sandbox: worktree.id })).runs;
    // Private commits on no branch: refs under refs/bindery/checkpoints/.
    const refs = git(repo, 'for-each-ref', '--format=%(refname)', `refs/bindery/checkpoints/${worktree.id}/`).split('\n').filter(Boolean);
    expect(refs).toHaveLength(4);
    expect(git(repo, 'branch', '--list').trim()).not.toContain('bindery');

    const second = { kind: 'run', runId: runs[1]!.runId } as const;
    expect(await paths(planId, worktree.id, second)).toEqual(['a.txt', 'count', 'run-2.txt']);
    expect(await paths(planId, copy.id, second)).toEqual(['notes.txt', 'run-2.txt']);
    expect(await paths(planId, worktree.id, { kind: 'run', runId: runs[0]!.runId })).toEqual(['a.txt', 'count', 'run-1.txt']);

    // The refs keep the checkpoints through the repository's own gc.
    git(repo, 'gc', '--quiet', '--prune=now');
    const diff = await call('fileDiff', { plan: planId, sandbox: worktree.id, path: 'a.txt', scope: second });
    expect([diff.status, diff.oldText, diff.newText]).toEqual(['modified', 'a\nrun 1\n', 'a\nrun 1\nrun 2\n']);
    const copied = await call('fileDiff', { plan: planId, sandbox: copy.id, path: 'notes.txt', scope: { kind: 'run', runId: runs[0]!.runId } });
    // The copy's start checkpoint had not kept notes.txt (it was the base's then): the base stands in.
    expect([copied.status, copied.oldText, copied.newText]).toEqual(['modified', 'notes\n', 'notes\nrun 1\n']);
    const added = await call('fileDiff', { plan: planId, sandbox: copy.id, path: 'run-2.txt', scope: second });
    expect([added.status, added.oldText, added.newText]).toEqual(['added', null, 'run 2\n']);
    const notInRun = await dispatch('fileDiff', { plan: planId, sandbox: worktree.id, path: 'b.txt', scope: second });
    expect(notInRun.ok).toBe(false);
  });

  it('takes the checkpoints into the trash entry on discard, back on restore, and ends them on purge', async () => {
    const { planId, worktree, copy } = await readyPlan();
    await runOnce(planId);
    expect(git(repo, 'for-each-ref', 'refs/bindery/checkpoints/').trim()).not.toBe('');
    const copies = path.join(bindery.dataDir, 'checkpoints', copy.id);
    expect(fs.existsSync(copies)).toBe(true);
    await call('discardPlan', { plan: planId, confirm: true });
    expect(git(repo, 'for-each-ref', 'refs/bindery/').trim()).toBe('');
    expect(fs.existsSync(copies)).toBe(false);

    for (const entry of await call('listTrash')) await call('restoreTrash', { id: entry.id });
    for (const sandbox of [worktree, copy]) {
      const { runs } = await call('reviewState', { plan: planId, sandbox: sandbox.id });
      expect(runs).toHaveLength(1);
      expect(await paths(planId, sandbox.id, { kind: 'run', runId: runs[0]!.runId })).toContain('run-1.txt');
    }

    await call('discardPlan', { plan: planId, confirm: true });
    await call('purgeTrash', { all: true });
    expect(git(repo, 'for-each-ref', 'refs/bindery/').trim()).toBe('');
    expect(fs.readdirSync(path.join(bindery.dataDir, 'trash'))).toEqual([]);
    expect(fs.existsSync(path.join(bindery.dataDir, 'checkpoints', worktree.id))).toBe(false);
    expect(fs.existsSync(copies)).toBe(false);
  });

  it('says so, without failing the review, when a run left no end checkpoint or its checkpoints are gone', async () => {
    const { planId, worktree, copy } = await readyPlan();
    await runOnce(planId);
    const [done] = (await call('reviewState', { plan: planId, sandbox: worktree.id })).runs;
    // A run killed mid-way (its process gone) recorded its start only; one whose start failed, its end only.
    const db = bindery.db;
    db.prepare(`INSERT INTO run_checkpoints (run_id, sandbox_id, moment, kind, ref, at) SELECT 'killed', sandbox_id, moment, kind, ref, at FROM run_checkpoints WHERE run_id = ? AND moment = 'start'`).run(done!.runId);
    db.prepare(`INSERT INTO run_checkpoints (run_id, sandbox_id, moment, kind, ref, at) SELECT 'headless', sandbox_id, moment, kind, ref, at FROM run_checkpoints WHERE run_id = ? AND moment = 'end'`).run(done!.runId);
    const state = await call('reviewState', { plan: planId, sandbox: worktree.id });
    expect(state.runs.map((r) => [r.runId, r.endedAt === null])).toEqual([[done!.runId, false], ['killed', true]]);
    const killed = await dispatch('reviewState', { plan: planId, sandbox: worktree.id, scope: { kind: 'run', runId: 'killed' } });
    expect(killed.ok ? null : [killed.error.code, killed.error.message]).toEqual(['conflict', expect.stringMatching(/recorded no checkpoint at its end.*stopped before/) as unknown]);
    const headless = await dispatch('planChanges', { plan: planId, sandbox: worktree.id, scope: { kind: 'run', runId: 'headless' } });
    expect(headless.ok ? null : [headless.error.code, headless.error.message]).toEqual(['conflict', expect.stringMatching(/recorded no checkpoint at its start/) as unknown]);

    // Checkpoints deleted behind Bindery's back (a ref by hand, a manifest file): said, not an internal error.
    git(repo, 'update-ref', '-d', `refs/bindery/checkpoints/${worktree.id}/${done!.runId}-end`);
    git(repo, 'gc', '--quiet', '--prune=now');
    const manifest = db.prepare(`SELECT ref FROM run_checkpoints WHERE run_id = ? AND sandbox_id = ? AND moment = 'end'`).pluck().get(done!.runId, copy.id) as string;
    fs.rmSync(path.join(bindery.dataDir, 'checkpoints', copy.id, `${manifest}.sealed`));
    const scope = { kind: 'run', runId: done!.runId } as const;
    for (const [method, input] of [
      ['planChanges', { plan: planId, sandbox: worktree.id, scope }],
      ['fileDiff', { plan: planId, sandbox: worktree.id, path: 'a.txt', scope }],
      ['planChanges', { plan: planId, sandbox: copy.id, scope }],
      ['fileDiff', { plan: planId, sandbox: copy.id, path: 'notes.txt', scope }],
    ] as const) {
      const result = await dispatch(method, input);
      expect(result.ok ? null : [result.error.code, result.error.message], method).toEqual(['conflict', expect.stringMatching(/checkpoints of that run are gone/) as unknown]);
    }
  });
});
