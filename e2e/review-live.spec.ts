/**
 * The review's change list is versioned and pushed (issue 22), through `bindery serve` in Chromium:
 * idle on a review with the event stream up transfers no change list; an edit in the sandbox
 * reaches the list as a delta after the pushed version; after committing 2 of 3 files the
 * committed ones leave the list, and the review's and the plan page's counts agree.
 * Behaviour, not timing.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page, Response } from '@playwright/test';
import { expect, saveScreenshot, test } from './fixtures.ts';
import { PlanPage, ReviewPage } from './pages/review-pages.ts';
import { seedPlan, showReview, type SeededPlan } from './pages/review-seed.ts';
import { Workspace } from './pages/workspace.ts';

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

/** Three committed files, each edited in the sandbox of a plan. */
function seededReview(app: { dataDir: string }): Promise<SeededPlan> {
  const names = ['a.txt', 'b.txt', 'c.txt'];
  return seedPlan(app.dataDir, workspace, {
    repo: 'shop',
    tool: 'edit',
    project: 'store',
    original: Object.fromEntries(names.map((name) => [name, `${name}\n`])),
    changed: Object.fromEntries(names.map((name) => [name, `${name} edited\n`])),
  });
}

async function openReview(page: Page, plan: SeededPlan): Promise<ReviewPage> {
  const review = await showReview(page, plan);
  // Generous: the first list of a fresh server on a busy machine.
  await expect(review.file('c.txt')).toBeVisible({ timeout: 30_000 });
  return review;
}

test('idle with the event stream up transfers no change list; an edit arrives as a delta', async ({ app }) => {
  const page = app.page;
  const plan = await seededReview(app);
  // The event stream opened with the app (the registry's events), before the review.
  const review = await openReview(page, plan);
  const { traffic, settled } = watchListTraffic(page);

  // Idle: more than the old 2 s polling period, three times over.
  await page.waitForTimeout(6_500);
  await settled();
  expect(traffic.whole).toBe(0);
  expect(traffic.kinds.filter((k) => k !== 'unchanged')).toEqual([]);
  expect(traffic.fileBytes).toBe(0);

  // An edit: the watcher pushes the new version and the review asks only for what changed.
  await fs.writeFile(path.join(plan.sandboxPath, 'd.txt'), 'new\n');
  await expect(review.file('d.txt')).toBeVisible({ timeout: 20_000 });
  await settled();
  expect(traffic.whole).toBe(0);
  expect(traffic.kinds).toContain('delta');
  expect(traffic.kinds).not.toContain('full');
  await expect(page.locator('.page-subtitle')).toContainText('4 changed files');
});

test('after committing 2 of 3 files, the committed ones leave the list and every count agrees', async ({ app }) => {
  const page = app.page;
  const seeded = await seededReview(app);
  const review = await openReview(page, seeded);
  await expect(page.locator('.page-subtitle')).toContainText('3 changed files');

  await review.check('c.txt', false);
  const dialog = await review.startCommit();
  await dialog.getByRole('button', { name: 'Commit 2 files' }).click();
  await expect(review.outcome()).toContainText('wrote 2 files');
  expect(await fs.readFile(path.join(seeded.repo, 'a.txt'), 'utf8')).toBe('a.txt edited\n');

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
