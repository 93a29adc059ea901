import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo, tempDir, writeFiles } from '../testing/fixtures.ts';
import { openBindery } from './bindery.ts';
import type { PlanEvent } from './plan-service.ts';

const TOOL = `
name: fixer
resource_slots:
  - name: app
    resource_type: git-checkout
    access: read_write
  - name: docs
    resource_type: fs-directory
    access: read_only
    binding: static
    static_resource: local/docs
  - name: target
    resource_type: fs-directory
    access: read_write
    binding: parameter
`;

async function seeded() {
  const dataDir = tempDir('bindery-data-');
  const bindery = openBindery(dataDir);
  const repo = gitRepo({ 'main.py': 'print(1)\n' });
  const docs = tempDir();
  writeFiles(docs, { 'guide.md': '# guide\n' });
  const target = tempDir();
  writeFiles(target, { 'out.txt': 'old\n' });
  const { registry } = bindery;
  await registry.addResource({ name: 'local/app', typeName: 'git-checkout', location: repo });
  await registry.addResource({ name: 'local/docs', typeName: 'fs-directory', location: docs });
  await registry.addResource({ name: 'local/target', typeName: 'fs-directory', location: target });
  registry.addProject({ name: 'demo' });
  registry.link('demo', 'local/app');
  await registry.importTools(TOOL, 'fixer.yaml');
  const events: PlanEvent[] = [];
  bindery.plans.onEvent((event) => events.push(event));
  return { dataDir, bindery, repo, docs, target, events, plans: bindery.plans };
}

describe('PlanService.createPlan', () => {
  it('binds and provisions every slot, records the status history and tells listeners', async () => {
    const { plans, events, bindery } = await seeded();
    const detail = await (await plans.createPlan('fixer', 'demo', { target: 'local/target' })).provisioned;
    expect(detail.plan).toMatchObject({ toolName: 'fixer', projectName: 'demo', status: 'ready', params: { target: 'local/target' } });
    expect(detail.history.map((h) => h.status)).toEqual(['provisioning', 'ready']);
    expect(detail.bound.map((b) => [b.slotName, b.access])).toEqual([
      ['app', 'read_write'],
      ['docs', 'read_only'],
      ['target', 'read_write'],
    ]);
    expect(detail.sandboxes.map((s) => s.strategy).sort()).toEqual(['copy_on_write', 'copy_on_write', 'git_worktree']);
    for (const b of detail.bound) expect(fs.existsSync(b.sandboxPath)).toBe(true);
    expect(events.filter((e) => e.type === 'plan').map((e) => (e as { status: string }).status)).toEqual(['provisioning', 'ready']);
    expect(events.some((e) => e.type === 'status')).toBe(true);
    expect(plans.activity({ planId: detail.plan.id }).map((a) => a.kind)).toContain('plan.created');
    expect(plans.findPlan(detail.plan.id.slice(0, 10).toLowerCase()).id).toBe(detail.plan.id);
    bindery.close();
  });

  it('answers with the plan id at once, while the sandboxes are provisioned', async () => {
    const { plans, bindery } = await seeded();
    const start = await plans.createPlan('fixer', 'demo', { target: 'local/target' });
    expect(plans.showPlan(start.planId).plan.status).toBe('provisioning');
    const detail = await start.provisioned;
    expect([detail.plan.id, detail.plan.status]).toEqual([start.planId, 'ready']);
    bindery.close();
  });

  it('refuses deferred parameter slots before creating anything', async () => {
    const { plans } = await seeded();
    await expect(plans.createPlan('fixer', 'demo')).rejects.toMatchObject({ code: 'validation_error', details: { deferredSlots: ['target'] } });
    expect(plans.listPlans()).toEqual([]);
  });

  it('leaves nothing behind when one resource cannot be provisioned, and marks the plan failed', async () => {
    const { plans, target, dataDir } = await seeded();
    fs.rmSync(target, { recursive: true });
    await expect((await plans.createPlan('fixer', 'demo', { target: 'local/target' })).provisioned).rejects.toThrow();
    const [plan] = plans.listPlans();
    expect(plan?.status).toBe('failed');
    expect(plan?.error).toBeTruthy();
    const planDir = path.join(dataDir, 'sandboxes', plan!.id);
    const left = fs.existsSync(planDir) ? fs.readdirSync(planDir) : [];
    expect(left).toEqual([]);
    expect(plans.showPlan(plan!.id).sandboxes.filter((s) => s.status === 'ready')).toEqual([]);
  });

  it('stops when cancelled, marks the plan failed and leaves no sandbox folder', async () => {
    const { plans, dataDir } = await seeded();
    const abort = new AbortController();
    abort.abort();
    await expect((await plans.createPlan('fixer', 'demo', { target: 'local/target' }, { signal: abort.signal })).provisioned).rejects.toMatchObject({ code: 'cancelled' });
    const [plan] = plans.listPlans();
    expect(plan?.status).toBe('failed');
    const planDir = path.join(dataDir, 'sandboxes', plan!.id);
    expect(fs.existsSync(planDir) ? fs.readdirSync(planDir) : []).toEqual([]);
  });

  it('names an unknown plan and an ambiguous sandbox reference with what to use instead', async () => {
    const { plans } = await seeded();
    expect(() => plans.findPlan('nope')).toThrow(/There is no plan "nope"\. See the list of plans\.$/);
    const { plan } = await (await plans.createPlan('fixer', 'demo', { target: 'local/target' })).provisioned;
    await expect(plans.undo(plan.id)).rejects.toThrow(/has 3 sandboxes: say which one, by resource name \(.*local\/app \(slots app\)/);
    await expect(plans.changes(plan.id, 'nothing')).rejects.toThrow(/has no sandbox for "nothing"/);
    expect((await plans.changes(plan.id, 'docs'))[0]?.resourceName).toBe('local/docs');
  });
});

describe('PlanService.diff', () => {
  it('diffs every sandbox of the plan in its order, one path on request, and names a path with no change', async () => {
    const { plans, bindery } = await seeded();
    const { plan, bound } = await (await plans.createPlan('fixer', 'demo', { target: 'local/target' })).provisioned;
    const at = (slot: string) => bound.find((b) => b.slotName === slot)!.sandboxPath;
    fs.writeFileSync(path.join(at('app'), 'main.py'), 'print(2)\n');
    fs.writeFileSync(path.join(at('target'), 'out.txt'), 'new\n');
    const changed: Record<string, string> = { 'local/app': 'main.py', 'local/target': 'out.txt' };
    const order = plans.showPlan(plan.id).sandboxes.flatMap((s) => (changed[s.resourceName] ? [changed[s.resourceName]] : []));
    const whole = await plans.diff(plan.id);
    expect(whole.map((d) => d.path)).toEqual(order);
    expect(whole.map((d) => (d.kind === 'text' ? d.patch : ''))).toEqual(
      order.map((p) => (p === 'main.py' ? '--- a/main.py\n+++ b/main.py\n@@ -1 +1 @@ hunk 1\n-print(1)\n+print(2)\n' : '--- a/out.txt\n+++ b/out.txt\n@@ -1 +1 @@ hunk 1\n-old\n+new\n')),
    );
    expect((await plans.diff(plan.id, { path: 'out.txt' })).map((d) => d.path)).toEqual(['out.txt']);
    await expect(plans.diff(plan.id, { path: 'guide.md' })).rejects.toThrow(/"guide.md" has no change in plan/);
    bindery.close();
  });
});

describe('PlanService.recover', () => {
  it('puts a plan back to ready when recovery finishes the undo of its only commit', async () => {
    const { plans, bindery, dataDir, target } = await seeded();
    const { plan, bound } = await (await plans.createPlan('fixer', 'demo', { target: 'local/target' })).provisioned;
    fs.writeFileSync(path.join(bound.find((b) => b.slotName === 'target')!.sandboxPath, 'out.txt'), 'new\n');
    const sandbox = plans.showPlan(plan.id).sandboxes.find((s) => s.resourceName === 'local/target')!;
    bindery.close();
    // Another process commits, then dies while undoing that commit.
    const child = path.join(import.meta.dirname, '../testing/sandbox/commit-crash-child.ts');
    expect(spawnSync(process.execPath, ['--import', 'tsx', child, dataDir, sandbox.id, 'restored', 'undo']).signal).toBe('SIGKILL');

    const restarted = openBindery(dataDir);
    // The child commits through the engine alone; the app's own commit would have marked the plan committed.
    restarted.db.prepare("UPDATE plans SET status = 'committed' WHERE id = ?").run(plan.id);
    expect((await restarted.plans.recover()).transactions.map((t) => t.outcome)).toEqual(['undone']);
    expect(fs.readFileSync(path.join(target, 'out.txt'), 'utf8')).toBe('old\n');
    expect(restarted.plans.showPlan(plan.id).plan.status).toBe('ready');
    restarted.close();
  });
});

describe('PlanService commit, undo, discard', () => {
  it('moves the plan through partially committed, committed, ready (after undo) and discarded', async () => {
    const { plans, repo, target } = await seeded();
    const { plan, bound } = await (await plans.createPlan('fixer', 'demo', { target: 'local/target' })).provisioned;
    const app = bound.find((b) => b.slotName === 'app')!.sandboxPath;
    const out = bound.find((b) => b.slotName === 'target')!.sandboxPath;
    fs.writeFileSync(path.join(app, 'main.py'), 'print(2)\n');
    fs.writeFileSync(path.join(out, 'out.txt'), 'new\n');

    await plans.commit(plan.id, { resource: 'app' });
    expect(plans.showPlan(plan.id).plan.status).toBe('partially_committed');
    expect(fs.readFileSync(path.join(repo, 'main.py'), 'utf8')).toBe('print(2)\n');

    await plans.commit(plan.id);
    expect(plans.showPlan(plan.id).plan.status).toBe('committed');
    expect(fs.readFileSync(path.join(target, 'out.txt'), 'utf8')).toBe('new\n');

    await plans.undo(plan.id, 'target');
    await plans.undo(plan.id, 'app');
    expect(fs.readFileSync(path.join(repo, 'main.py'), 'utf8')).toBe('print(1)\n');
    expect(plans.showPlan(plan.id).plan.status).toBe('ready');

    const waiting = await plans.discard(plan.id);
    expect(waiting.some((o) => o.kind === 'needs_confirmation')).toBe(true);
    expect(plans.showPlan(plan.id).plan.status).toBe('ready');
    await plans.discard(plan.id, { yes: true });
    const after = plans.showPlan(plan.id);
    expect(after.plan.status).toBe('discarded');
    expect(after.history.map((h) => h.status)).toEqual(['provisioning', 'ready', 'partially_committed', 'committed', 'partially_committed', 'ready', 'discarded']);
    expect(fs.existsSync(app)).toBe(false);

    const trash = await plans.listTrash();
    expect(trash.length).toBeGreaterThan(0);
    await plans.restoreTrash(trash[0]!.id);
    expect(plans.showPlan(plan.id).plan.status).toBe('ready');
  });
});

describe('PlanService.recover', () => {
  it('runs once per process and reports orphans and missing sandboxes', async () => {
    const { plans, dataDir, bindery } = await seeded();
    const { plan, bound } = await (await plans.createPlan('fixer', 'demo', { target: 'local/target' })).provisioned;
    bindery.close();
    const orphan = path.join(dataDir, 'sandboxes', plan.id, 'stray-folder');
    fs.mkdirSync(orphan);
    const docs = bound.find((b) => b.slotName === 'docs')!.sandboxPath;
    fs.chmodSync(docs, 0o755);
    fs.rmSync(docs, { recursive: true, force: true });

    const reopened = openBindery(dataDir);
    const first = reopened.plans.recover();
    expect(reopened.plans.recover()).toBe(first);
    const report = await first;
    expect(report.orphans).toContain(orphan);
    expect(fs.existsSync(orphan)).toBe(true);
    expect(report.missing.map((m) => m.path)).toEqual([docs]);
    expect(reopened.plans.showPlan(plan.id).sandboxes.find((s) => s.path === docs)?.status).toBe('missing');
    reopened.close();
  });
});
