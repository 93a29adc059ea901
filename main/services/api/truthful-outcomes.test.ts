import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MethodName } from '../../../shared/contract.ts';
import { apiHarness, toolYaml, until, type ApiHarness } from '../../testing/api-harness.ts';
import { git, writeFiles } from '../../testing/fixtures.ts';

const LINES = 'l1\nl2\nl3\nl4\nl5\nl6\n';

let api: ApiHarness;
let repo: string;
beforeEach(async () => {
  api = await apiHarness({
    files: { 'README.md': '# demo\n', 'm.txt': LINES },
    tools: [toolYaml('sleeper', "printf 'x\\n' >> README.md; sleep 30"), toolYaml('editor', "printf 'new\\n' >> README.md; sed -i 's/l2/TOOL/' m.txt")],
  });
  repo = api.repo;
});
afterEach(() => api.close());

const call = <M extends MethodName>(method: M, input?: unknown) => api.call(method, input);
const refusal = async (method: MethodName, input: unknown) => (await api.failure(method, input)).message;

/** A plan provisioned (and, with run, its command started) the way the inspector does it. */
async function plan(toolName: string, run: boolean) {
  const { planId } = await call('createPlan', { tool: toolName, project: 'demo', run });
  const view = await until(() => call('showPlan', { plan: planId }), (v) => v.plan.status !== 'provisioning' && (!run || v.lastRun !== null));
  return { planId, sandboxId: view.sandboxes[0]!.id, view };
}

describe('truthful outcomes through the API', () => {
  it('runs the command after provisioning when asked, and refuses commit and discard while it runs', async () => {
    const { planId, sandboxId, view } = await plan('sleeper', true);
    expect(view.lastRun?.status).toBe('running');
    await until(() => call('planChanges', { plan: planId }), (lists) => (lists[0]?.changes.length ?? 0) > 0);
    for (const [method, input] of [
      ['commitSandbox', { plan: planId, sandbox: sandboxId }],
      ['commitPlan', { plan: planId }],
      ['discardSandbox', { plan: planId, sandbox: sandboxId, confirm: true }],
      ['discardPlan', { plan: planId, confirm: true }],
    ] as const) {
      expect(await refusal(method, input)).toMatch(/still running in this plan: stop it, or wait for it to finish/);
    }
    expect(git(repo, 'status', '--porcelain')).toBe('');
    await call('stopRun', { runId: view.lastRun!.id });
    await until(() => call('showRun', { runId: view.lastRun!.id }), (r) => r.status !== 'running');
    const [report] = await call('commitSandbox', { plan: planId, sandbox: sandboxId });
    expect(report?.committed).toBe(true);
  });

  it('does not run without asking', async () => {
    const { view } = await plan('sleeper', false);
    expect(view.lastRun).toBeNull();
  });

  it('says the git commit stays after an undo, and makes the revert commit only for an undone commit', async () => {
    const { planId, sandboxId } = await plan('editor', true);
    await until(() => call('showPlan', { plan: planId }), (v) => v.lastRun?.status === 'exited');
    const [report] = await call('commitSandbox', { plan: planId, sandbox: sandboxId, gitMessage: 'Apply the editor' });
    const sha = report!.gitCommit!;
    expect(await refusal('revertGitCommit', { plan: planId, sandbox: sandboxId, commit: sha })).toMatch(/is not undone: undo it first/);
    const undone = await call('undoCommit', { plan: planId, sandbox: sandboxId });
    expect(undone.summary).toMatch(new RegExp(`The git commit ${sha.slice(0, 12)} stays on the branch: make a revert commit`));
    expect(undone.summary).not.toMatch(/was reverted/);
    const activity = await call('activity', { plan: planId });
    expect(activity.find((a) => a.kind === 'commit.undone')?.message).toMatch(/stays on the branch/);
    expect(await refusal('revertGitCommit', { plan: planId, sandbox: sandboxId, commit: 'a'.repeat(40) })).toMatch(/was not made by a commit of the local\/app sandbox/);
    const reverted = await call('revertGitCommit', { plan: planId, sandbox: sandboxId, commit: sha });
    expect(reverted).toMatchObject({ reverted: true, commit: git(repo, 'rev-parse', 'HEAD').trim() });
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Revert "Apply the editor"');
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('dry-runs a merge: offered where it succeeds, with the three sides where it does not', async () => {
    const { planId, sandboxId } = await plan('editor', true);
    await until(() => call('showPlan', { plan: planId }), (v) => v.lastRun?.status === 'exited');
    writeFiles(repo, { 'm.txt': LINES.replace('l6', 'PERSON'), 'README.md': '# person\n' });
    const clean = await call('mergePreview', { plan: planId, sandbox: sandboxId, path: 'm.txt' });
    expect(clean.outcome).toBe('clean');
    const clash = await call('mergePreview', { plan: planId, sandbox: sandboxId, path: 'README.md' });
    expect(clash).toMatchObject({ outcome: 'conflicts', conflicts: 1 });
    expect(clash.hunks).toEqual([{ kind: 'conflict', base: ['# demo'], original: ['# person'], sandbox: ['# demo', 'new'] }]);
  });
});
