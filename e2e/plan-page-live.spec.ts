/**
 * The plan page asks for change lists by version (issue 22), through `bindery serve` in Chromium
 * with the test build's counters: idle with the event stream up it sends no request and the
 * engine lists nothing; an edit in the sandbox reaches its card as a delta. While the tool's
 * command runs, "Stop and commit…" beside the held Commit stops the run and opens the commit
 * dialog. Behaviour, not timing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, saveScreenshot, test } from './fixtures.ts';
import { PlanPage } from './pages/review-pages.ts';
import { bindery, Workspace } from './pages/workspace.ts';
import { startServe, type ServeProcess } from './serve-process.ts';

// Seeding runs the CLI five times, slow on a busy machine.
test.setTimeout(240_000);

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'E2E', GIT_AUTHOR_EMAIL: 'e2e@x.invalid', GIT_COMMITTER_NAME: 'E2E', GIT_COMMITTER_EMAIL: 'e2e@x.invalid' };

let workspace: Workspace;
let dataDir: string;
let server: ServeProcess | null = null;
test.beforeEach(async () => {
  workspace = await Workspace.create();
  dataDir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'bindery-e2e-data-')));
});
test.afterEach(async () => {
  await server?.stop();
  server = null;
  await workspace.dispose();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A repository of three files, a tool running `run` (or nothing) and a plan with the three edited in its sandbox. */
async function seed(run?: string): Promise<{ planId: string; sandbox: { id: string; path: string } }> {
  const repo = await workspace.gitRepo('shop');
  for (const name of ['a.txt', 'b.txt', 'c.txt']) await fs.writeFile(path.join(repo, name), `${name}\n`);
  execFileSync('git', ['add', '-A'], { cwd: repo, env: GIT_ENV });
  execFileSync('git', ['commit', '-q', '-m', 'three files'], { cwd: repo, env: GIT_ENV });
  const runLine = run ? `run: ${JSON.stringify(run)}\n` : '';
  const tool = await workspace.file('tool.yaml', `name: edit\n${runLine}resource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n`);
  await bindery(dataDir, 'resources', 'add', 'local/shop', '--type', 'git-checkout', '--location', repo);
  await bindery(dataDir, 'projects', 'add', 'store');
  await bindery(dataDir, 'projects', 'link', 'store', 'local/shop');
  await bindery(dataDir, 'tools', 'import', tool);
  const plan = (await bindery(dataDir, 'plans', 'create', 'edit', '--project', 'store')) as { plan_id: string; sandboxes: Array<{ id: string; path: string }> };
  const sandbox = plan.sandboxes[0]!;
  for (const name of ['a.txt', 'b.txt', 'c.txt']) await fs.writeFile(path.join(sandbox.path, name), `${name} edited\n`);
  return { planId: plan.plan_id, sandbox };
}

async function openPlan(page: Page, planId: string): Promise<PlanPage> {
  server = await startServe(dataDir, { BINDERY_TEST_COUNTERS: '1' });
  await page.goto(`${server.url}#/plans/${planId}`);
  const plan = new PlanPage(page);
  await expect(plan.sandbox('local/shop')).toContainText('3 changes', { timeout: 30_000 });
  return plan;
}

async function counters(method: 'GET' | 'DELETE'): Promise<{ detections: number; sidesRead: number }> {
  const answer = await fetch(`${server!.origin}/__test/counters`, { method, headers: { 'X-Bindery-Token': server!.token } });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { detections: number; sidesRead: number };
}

test('an idle plan page sends nothing and lists nothing; an edit reaches its card as a delta', async ({ page }) => {
  const { planId, sandbox } = await seed();
  const plan = await openPlan(page, planId);
  // Let the first look settle (the watcher's start, the lists), then watch.
  await page.waitForTimeout(1500);
  const requests: string[] = [];
  const kinds: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) requests.push(url.pathname);
  });
  page.on('response', (response) => {
    if (response.url().includes('/api/changesSince')) void response.json().then((body: { value?: { kind: string } }) => kinds.push(body.value?.kind ?? 'error'));
  });
  await counters('DELETE');

  // Idle: more than the old 2.5 s polling period, twice over.
  await page.waitForTimeout(6_000);
  expect(requests).toEqual([]);
  expect(await counters('GET')).toMatchObject({ detections: 0 });

  // An edit: the watcher pushes the new version and the page asks that sandbox for what changed.
  await fs.writeFile(path.join(sandbox.path, 'd.txt'), 'new\n');
  await expect(plan.sandbox('local/shop')).toContainText('4 changes', { timeout: 20_000 });
  await expect(page.getByRole('button', { name: /^Commit all/ })).toHaveText(/\(4\)/);
  await expect.poll(() => kinds).toContain('delta');
  expect(kinds).not.toContain('full');
  expect(requests.filter((name) => name === '/api/planChanges' || name === '/api/showPlan')).toEqual([]);
});

test('while the command runs, "Stop and commit…" stops it and opens the commit dialog', async ({ page }) => {
  const { planId } = await seed("printf 'stock\\n' >> README.md; echo working; sleep 60");
  const plan = await openPlan(page, planId);
  const panel = plan.runPanel();
  await panel.getByRole('button', { name: /Run tool|Run again/ }).click();
  await expect(panel.getByRole('status')).toContainText('Running…', { timeout: 20_000 });
  await expect(page.getByRole('button', { name: /^Commit all/ })).toBeDisabled();
  const stopAndCommit = page.getByRole('button', { name: 'Stop and commit…' });
  await expect(stopAndCommit).toBeEnabled();
  await saveScreenshot(page, 'plan-stop-and-commit');

  await stopAndCommit.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('status')).toContainText('Stopped');
  await expect(plan.title()).not.toContainText('Running');
  // What the command wrote before it stopped is counted: the three edits and README.md.
  await expect(dialog).toContainText('4 changes');
  // Cancel leaves the command stopped: the dialog says so before it is chosen.
  await expect(dialog.getByRole('note')).toContainText('If you cancel, it stays stopped');
  await expect(stopAndCommit).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Commit all/ })).toBeEnabled();
});

test('a commit, a discard and a restore made by the CLI show on the open plan page without a reload', async ({ page }) => {
  const { planId, sandbox } = await seed();
  const plan = await openPlan(page, planId);
  const card = plan.sandbox('local/shop');
  const badge = card.locator('.badge').first();
  await expect(badge).toHaveText('ready');

  // Another process writes the registry; this host sends no sandbox event for it.
  await bindery(dataDir, 'plans', 'commit', planId, '--resource', 'repo');
  await expect(badge).toHaveText('committed', { timeout: 20_000 });
  await expect(card).toContainText('0 changes');

  await fs.writeFile(path.join(sandbox.path, 'a.txt'), 'again\n');
  await expect(card).toContainText('1 change', { timeout: 20_000 });
  await bindery(dataDir, 'plans', 'discard', planId, '--yes');
  await expect(card).toContainText('Discarded (see the trash to restore)', { timeout: 20_000 });

  const [entry] = (await bindery(dataDir, 'trash', 'list')) as Array<{ id: string }>;
  await bindery(dataDir, 'trash', 'restore', entry!.id);
  await expect(card).toContainText('1 change', { timeout: 20_000 });
  await expect(badge).not.toHaveText('discarded');
});

test('a sandbox whose folder is gone shows why and is not asked again and again', async ({ page }) => {
  const { planId, sandbox } = await seed();
  await fs.rm(sandbox.path, { recursive: true, force: true });
  server = await startServe(dataDir, { BINDERY_TEST_COUNTERS: '1' });
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) requests.push(url.pathname);
  });
  await page.goto(`${server.url}#/plans/${planId}`);
  const plan = new PlanPage(page);
  await expect(plan.sandbox('local/shop')).toBeVisible({ timeout: 30_000 });
  await expect(plan.sandbox('local/shop').getByText(/disappeared outside Bindery/)).toBeVisible({ timeout: 20_000 });
  await saveScreenshot(page, 'plan-sandbox-folder-missing');
  const settled = requests.length;
  await page.waitForTimeout(5_000);
  expect(requests.slice(settled)).toEqual([]);
});

