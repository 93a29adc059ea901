/**
 * The review's change list is versioned and pushed (issue 22), through `bindery serve` in Chromium:
 * idle on a review with the event stream up transfers no change list; an edit in the sandbox
 * reaches the list as a delta after the pushed version; after committing 2 of 3 files the
 * committed ones leave the list, and the review's and the plan page's counts agree.
 * Behaviour, not timing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page, Response } from '@playwright/test';
import { expect, saveScreenshot, test } from './fixtures.ts';
import { PlanPage, ReviewPage } from './pages/review-pages.ts';
import { bindery, Workspace } from './pages/workspace.ts';

// Seeding runs the CLI five times, slow on a busy machine.
test.setTimeout(240_000);

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

/** What the page asked about change lists, and how each answer came. */
interface ListTraffic {
  /** planChanges answers (always whole lists). */
  whole: number;
  /** changesSince answers by kind, and the bytes of those that carried files. */
  kinds: string[];
  fileBytes: number;
}

function watchListTraffic(page: Page): { traffic: ListTraffic; settled: () => Promise<void> } {
  const traffic: ListTraffic = { whole: 0, kinds: [], fileBytes: 0 };
  const pending = new Set<Promise<void>>();
  page.on('response', (response: Response) => {
    const url = response.url();
    if (url.includes('/api/planChanges')) traffic.whole++;
    if (!url.includes('/api/changesSince')) return;
    const read = response.text().then((body) => {
      const answer = JSON.parse(body) as { ok: boolean; value?: { kind: string } };
      const kind = answer.value?.kind ?? 'error';
      traffic.kinds.push(kind);
      if (kind !== 'unchanged') traffic.fileBytes += body.length;
    });
    pending.add(read);
    void read.finally(() => pending.delete(read));
  });
  return { traffic, settled: async () => void (await Promise.all([...pending])) };
}

async function seededReview(app: { dataDir: string; page: Page }) {
  const repo = await workspace.gitRepo('shop');
  for (const name of ['a.txt', 'b.txt', 'c.txt']) await fs.writeFile(path.join(repo, name), `${name}\n`);
  const env = { ...process.env, GIT_AUTHOR_NAME: 'E2E', GIT_AUTHOR_EMAIL: 'e2e@x.invalid', GIT_COMMITTER_NAME: 'E2E', GIT_COMMITTER_EMAIL: 'e2e@x.invalid' };
  execFileSync('git', ['add', '-A'], { cwd: repo, env });
  execFileSync('git', ['commit', '-q', '-m', 'three files'], { cwd: repo, env });
  const tool = await workspace.file(
    'tool.yaml',
    'name: edit\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n',
  );
  await bindery(app.dataDir, 'resources', 'add', 'local/shop', '--type', 'git-checkout', '--location', repo);
  await bindery(app.dataDir, 'projects', 'add', 'store');
  await bindery(app.dataDir, 'projects', 'link', 'store', 'local/shop');
  await bindery(app.dataDir, 'tools', 'import', tool);
  const plan = (await bindery(app.dataDir, 'plans', 'create', 'edit', '--project', 'store')) as {
    plan_id: string;
    sandboxes: Array<{ id: string; path: string }>;
  };
  const sandbox = plan.sandboxes[0]!;
  for (const name of ['a.txt', 'b.txt', 'c.txt']) await fs.writeFile(path.join(sandbox.path, name), `${name} edited\n`);
  return { repo, planId: plan.plan_id, sandbox };
}

async function openReview(page: Page, planId: string, sandboxId: string): Promise<ReviewPage> {
  await page.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, `#/plans/${planId}/review/${sandboxId}`);
  const review = new ReviewPage(page);
  // Generous: the first list of a fresh server on a busy machine.
  await expect(review.file('c.txt')).toBeVisible({ timeout: 30_000 });
  return review;
}

test('idle with the event stream up transfers no change list; an edit arrives as a delta', async ({ app }) => {
  const page = app.page;
  const { planId, sandbox } = await seededReview(app);
  // The event stream opened with the app (the registry's events), before the review.
  const review = await openReview(page, planId, sandbox.id);
  const { traffic, settled } = watchListTraffic(page);

  // Idle: more than the old 2 s polling period, three times over.
  await page.waitForTimeout(6_500);
  await settled();
  expect(traffic.whole).toBe(0);
  expect(traffic.kinds.filter((k) => k !== 'unchanged')).toEqual([]);
  expect(traffic.fileBytes).toBe(0);

  // An edit: the watcher pushes the new version and the review asks only for what changed.
  await fs.writeFile(path.join(sandbox.path, 'd.txt'), 'new\n');
  await expect(review.file('d.txt')).toBeVisible({ timeout: 20_000 });
  await settled();
  expect(traffic.whole).toBe(0);
  expect(traffic.kinds).toContain('delta');
  expect(traffic.kinds).not.toContain('full');
  await expect(page.locator('.page-subtitle')).toContainText('4 changed files');
});

test('after committing 2 of 3 files, the committed ones leave the list and every count agrees', async ({ app }) => {
  const page = app.page;
  const { repo, planId, sandbox } = await seededReview(app);
  const review = await openReview(page, planId, sandbox.id);
  await expect(page.locator('.page-subtitle')).toContainText('3 changed files');

  await review.check('c.txt', false);
  const dialog = await review.startCommit();
  await dialog.getByRole('button', { name: 'Commit 2 files' }).click();
  await expect(review.outcome()).toContainText('wrote 2 files');
  expect(await fs.readFile(path.join(repo, 'a.txt'), 'utf8')).toBe('a.txt edited\n');

  // The review: one file left, and every number on the screen says so.
  await expect(review.file('a.txt')).toHaveCount(0);
  await expect(review.file('b.txt')).toHaveCount(0);
  await expect(review.file('c.txt')).toBeVisible();
  await expect(page.locator('.page-subtitle')).toContainText('1 changed file · 2 already in the original');
  await expect(page.getByRole('button', { name: /^Commit (all|selected)/ })).toHaveText(/\(1\)/);
  await expect(page.locator('.file-panel-all')).toContainText('1 of 1 selected');
  await saveScreenshot(page, 'review-after-commit');

  // The plan page counts the same list the same way.
  await page.getByRole('link', { name: /← / }).first().click();
  const plan = new PlanPage(page);
  const card = plan.sandbox('local/shop');
  await expect(card).toContainText('1 change');
  await expect(card).toContainText('2 already in the original');
  await expect(card).not.toContainText('3 changes');
  await expect(page.getByRole('button', { name: /^Commit all/ })).toHaveText(/\(1\)/);
  await saveScreenshot(page, 'plan-after-commit');
});
