/**
 * Review state (issue 23) through `bindery serve` on real repositories: viewed marks that clear
 * themselves when the file changes again, the "since my last review" scope, and one run's changes
 * after two runs of a tool whose run command edits a file. Screenshots of the scope switch with
 * viewed marks, light and dark.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, saveScreenshot, test } from './fixtures.ts';
import type { ReviewPage } from './pages/review-pages.ts';
import { seedPlan, showReview } from './pages/review-seed.ts';
import { bindery, Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

const ORIGINAL = {
  'src/app.ts': 'export const app = 1;\n',
  'src/util.ts': 'export const util = 1;\n',
  'docs/guide.md': '# Guide\n',
};
const EDITED = {
  'src/app.ts': 'export const app = 2;\n',
  'src/util.ts': 'export const util = 2;\n',
  'docs/guide.md': '# Guide\n\nMore.\n',
};

function viewedToggle(review: ReviewPage, file: string) {
  return review.row(file).getByRole('checkbox', { name: `Viewed ${file}` });
}

function listed(review: ReviewPage) {
  return review.files().locator('.file-row-main');
}

async function viewedCount(page: Page, text: RegExp) {
  await expect(page.locator('.review-viewed-text')).toHaveText(text);
}

test('a viewed mark clears itself when the file changes again', async ({ app }) => {
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, { original: ORIGINAL, changed: EDITED });
  const review = await showReview(page, plan);
  await expect(listed(review)).toHaveCount(3);
  await viewedCount(page, /^0 of 3 viewed$/);

  await viewedToggle(review, 'src/app.ts').check();
  // v on the focused row marks that file.
  await review.file('src/util.ts').focus();
  await page.keyboard.press('v');
  await viewedCount(page, /^2 of 3 viewed$/);
  await expect(viewedToggle(review, 'src/util.ts')).toBeChecked();

  await fs.writeFile(path.join(plan.sandboxPath, 'src/app.ts'), 'export const app = 3;\n');
  await expect(review.row('src/app.ts').getByRole('note', { name: 'changed since viewed' })).toBeVisible({ timeout: 15_000 });
  await expect(viewedToggle(review, 'src/app.ts')).not.toBeChecked();
  await viewedCount(page, /^1 of 3 viewed$/);

  // Marked again: viewed as it is now.
  await viewedToggle(review, 'src/app.ts').check();
  await expect(review.row('src/app.ts').getByRole('note', { name: 'changed since viewed' })).toHaveCount(0);
  await viewedCount(page, /^2 of 3 viewed$/);
  await page.reload();
  await viewedCount(page, /^2 of 3 viewed$/);
});

test('"Since my last review" lists only what changed after the last viewed mark', async ({ app }) => {
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, { original: ORIGINAL, changed: EDITED });
  const review = await showReview(page, plan);
  await expect(listed(review)).toHaveCount(3);
  // Nothing marked yet: there is no last review to compare with.
  await expect(page.getByRole('radio', { name: 'Since my last review' })).toHaveCount(0);

  await viewedToggle(review, 'src/app.ts').check();
  await viewedToggle(review, 'src/util.ts').check();
  await viewedCount(page, /^2 of 3 viewed$/);
  await page.waitForTimeout(50);
  await fs.writeFile(path.join(plan.sandboxPath, 'src/util.ts'), 'export const util = 3;\n');
  await fs.writeFile(path.join(plan.sandboxPath, 'src/extra.ts'), 'export const extra = 1;\n');
  await expect(listed(review)).toHaveCount(4, { timeout: 15_000 });

  await page.getByRole('radio', { name: 'Since my last review' }).click();
  // util.ts changed after its mark, extra.ts is new; app.ts is as viewed and guide.md is older than the review.
  await expect(listed(review)).toHaveText([/extra\.ts/, /util\.ts/]);
  await expect(page.locator('.review-scope-count')).toHaveText('2 of 4 files');
  // The scope goes by time: the line under the switch says guide.md (never marked, older) is left out on purpose.
  const meaning = page.locator('#review-scope-meaning');
  await expect(meaning).toContainText('Files you never marked that were last written before then are only in All changes.');
  await expect(page.getByRole('radiogroup', { name: 'Show' })).toHaveAccessibleDescription(/^Files written after you last marked a file viewed/);
  await page.getByRole('radio', { name: 'All changes' }).click();
  await expect(listed(review)).toHaveCount(4);
  await expect(meaning).toHaveCount(0);
});

test('one run of the tool: its files alone, and its change of a file', async ({ app }) => {
  // Two runs and a plan through the CLI: slow on a busy machine.
  test.setTimeout(300_000);
  const { page } = app;
  // Each run appends a step to notes.md and leaves a file named after its number.
  const run = 'n=$(ls run-*.txt 2>/dev/null | wc -l); n=$((n+1)); echo "step $n" >> notes.md; echo "run $n" > run-$n.txt';
  const plan = await seedPlan(app.dataDir, workspace, {
    run,
    original: { ...ORIGINAL, 'notes.md': '# Notes\n' },
    changed: { 'src/app.ts': 'export const app = 2;\n' },
  });
  const review = await showReview(page, plan);
  await expect(listed(review)).toHaveCount(1);
  await viewedToggle(review, 'src/app.ts').check();

  await bindery(app.dataDir, 'plans', 'run', plan.planId);
  await expect(listed(review)).toHaveCount(3, { timeout: 15_000 });
  await viewedToggle(review, 'notes.md').check();
  await viewedCount(page, /^2 of 3 viewed$/);
  await bindery(app.dataDir, 'plans', 'run', plan.planId);
  await expect(listed(review)).toHaveCount(4, { timeout: 15_000 });
  await expect(review.row('notes.md').getByRole('note', { name: 'changed since viewed' })).toBeVisible();

  const picker = page.getByRole('combobox', { name: 'Show the changes of one run of the tool' });
  await expect(picker).toBeVisible({ timeout: 15_000 });
  const second = (await picker.locator('option').allTextContents()).find((label) => label.startsWith('Run 2 of 2'));
  expect(second).toMatch(/^Run 2 of 2 \(\d\d:\d\d\)$/);
  await picker.selectOption({ label: second! });
  await expect(listed(review)).toHaveText([/notes\.md/, /run-2\.txt/]);

  await review.file('notes.md').click();
  const diff = review.diff('notes.md');
  await expect(diff).toBeVisible();
  await expect(page.locator('.run-scope-note')).toContainText(second!);
  // Run 2 added "step 2" to what run 1 left; "step 1" is context, not a change of this run.
  await expect(diff.locator('.diff-code.is-add, .diff-unified.is-add').filter({ hasText: 'step 2' }).first()).toBeVisible();
  await expect(diff.locator('.diff-code.is-add, .diff-unified.is-add').filter({ hasText: 'step 1' })).toHaveCount(0);
  await expect(diff.getByText('step 1').first()).toBeVisible();

  await saveScreenshot(page, 'review-state-scope-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(200);
  await saveScreenshot(page, 'review-state-scope-dark');
});
