/**
 * Partial commits through `bindery serve` on real git repositories: two hunks of a file with four
 * and the rest later; chosen lines (by click, Shift+click and Space); a hunk that changed in the
 * original too refused while the others go through once it is left out. Screenshots of the hunk
 * selection (checked, mixed and unchecked hunks) at 1280x800, light and dark.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { confirmCommit, PartialDiff } from './pages/partial-pages.ts';
import { seedPlan, showReview, type SeededPlan } from './pages/review-seed.ts';
import { Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

const FILE = 'src/a.ts';
/** Forty numbered lines; the tool's four edits lie ten lines apart, so they make four hunks. */
const ORIGINAL = Array.from({ length: 40 }, (_, i) => `export const v${i + 1} = ${i + 1};`).join('\n') + '\n';
const SANDBOX = ORIGINAL.replace('export const v2 = 2;\n', 'export const v2 = 2 * 1;\n')
  .replace('export const v12 = 12;\n', 'export const v12 = 12 * 1;\nexport const v12b = 120;\n')
  .replace('export const v22 = 22;\n', '')
  .replace('export const v32 = 32;\n', 'export const v32 = 32 * 1;\n');

async function openFile(page: Page, plan: SeededPlan): Promise<PartialDiff> {
  const review = await showReview(page, plan, FILE);
  const diff = review.diff(FILE);
  await expect(diff).toBeVisible({ timeout: 15_000 });
  const partial = new PartialDiff(page, diff);
  await expect(partial.hunk(4)).toBeVisible();
  return partial;
}

async function original(plan: SeededPlan): Promise<string> {
  return fs.readFile(path.join(plan.repo, FILE), 'utf8');
}

function fileRowBox(page: Page) {
  return page.getByRole('checkbox', { name: `Commit ${FILE}`, exact: true });
}

async function startCommit(page: Page) {
  await page.getByRole('button', { name: /^Commit (all|selected)/ }).click();
  const dialog = page.getByRole('dialog', { name: /^Commit to / });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function shot(page: Page, name: string): Promise<void> {
  const dir = path.join(ARTIFACTS_DIR, 'screenshots');
  await fs.mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

test('commits two hunks of a file with four, then the rest later', async ({ app }) => {
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, { original: { [FILE]: ORIGINAL }, changed: { [FILE]: SANDBOX } });
  const diff = await openFile(page, plan);
  for (const id of [1, 2, 3, 4]) await diff.expectHunk(id, 'true');
  await expect(fileRowBox(page)).toHaveAttribute('aria-checked', 'true');

  await diff.setHunk(2, false);
  await diff.setHunk(4, false);
  await expect(fileRowBox(page)).toHaveAttribute('aria-checked', 'mixed');
  await diff.expectLine('new', 12, false);

  const dialog = await startCommit(page);
  await expect(dialog).toContainText(`2 of 4 hunks of ${FILE}`);
  await confirmCommit(dialog);
  const first = await original(plan);
  expect(first).toContain('export const v2 = 2 * 1;\n');
  expect(first).not.toContain('export const v22 = 22;\n');
  expect(first).toContain('export const v12 = 12;\n');
  expect(first).not.toContain('v12b');
  expect(first).toContain('export const v32 = 32;\n');

  // The rest stays pending in the sandbox: two hunks now, taken whole by the next commit.
  await expect(diff.hunk(3)).toHaveCount(0, { timeout: 15_000 });
  await diff.expectHunk(1, 'true');
  await diff.expectHunk(2, 'true');
  await expect(fileRowBox(page)).toHaveAttribute('aria-checked', 'true');
  const second = await startCommit(page);
  await expect(second).not.toContainText('hunks of');
  await confirmCommit(second);
  expect(await original(plan)).toBe(SANDBOX);
});

test('commits chosen lines: click, Shift+click and Space', async ({ app }) => {
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, { original: { [FILE]: ORIGINAL }, changed: { [FILE]: SANDBOX } });
  const diff = await openFile(page, plan);

  // Space on the change focused with n toggles its hunk.
  await diff.diff.locator('.diff-scroll').focus();
  await page.keyboard.press('n');
  await page.keyboard.press(' ');
  await diff.expectHunk(1, 'false');
  // A range by Shift+click takes the hunk's two lines again.
  await diff.toggleLine('old', 2);
  await diff.expectHunk(1, 'mixed');
  await diff.toggleLine('new', 2, true);
  await diff.expectHunk(1, 'true');

  await diff.setHunk(3, false);
  await diff.toggleLine('new', 13);
  await diff.expectHunk(2, 'mixed');
  await diff.expectLine('new', 13, false);
  await diff.expectLine('new', 12, true);
  await diff.expectHunk(4, 'true');
  await expect(fileRowBox(page)).toHaveAttribute('aria-checked', 'mixed');
  await expect(diff.diff.getByRole('status')).toContainText(`6 of 8 changed lines of ${FILE}`);

  await page.mouse.move(0, 0);
  await shot(page, 'partial-commit-hunks-1280x800');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'partial-commit-hunks-1280x800-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  const dialog = await startCommit(page);
  await expect(dialog).toContainText(`6 of 8 changed lines of ${FILE}`);
  await confirmCommit(dialog);
  const written = await original(plan);
  expect(written).toContain('export const v12 = 12 * 1;\nexport const v13 = 13;\n');
  expect(written).not.toContain('v12b');
  expect(written).toContain('export const v32 = 32 * 1;\n');
  expect(written).toContain('export const v2 = 2 * 1;\n');
  expect(written).toContain('export const v22 = 22;\n');
});

test('a hunk changed in the original too is refused; the others go through once it is left out', async ({ app }) => {
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, { original: { [FILE]: ORIGINAL }, changed: { [FILE]: SANDBOX } });
  // Someone edits the original beside the tool's third change.
  const theirs = ORIGINAL.replace('export const v23 = 23;\n', 'export const v23 = 23; // original\n');
  await fs.writeFile(path.join(plan.repo, FILE), theirs);
  const review = await showReview(page, plan, FILE);
  await expect(review.row(FILE).locator('.conflict-badge')).toBeVisible({ timeout: 20_000 });
  const diff = new PartialDiff(page, review.diff(FILE));
  await expect(diff.hunk(4)).toBeVisible({ timeout: 15_000 });

  await diff.setHunk(4, false);
  const dialog = await startCommit(page);
  await expect(dialog).toContainText(`3 of 4 hunks of ${FILE}`);
  await dialog.getByRole('button', { name: /^Commit \d/ }).click();
  const refusal = dialog.getByRole('alert');
  await expect(refusal).toContainText(`Hunk 3 of ${FILE} changed in the original`);
  expect(await original(plan)).toBe(theirs);

  await refusal.getByRole('button', { name: 'Leave out hunk 3' }).click();
  await expect(refusal).toBeHidden();
  await expect(dialog).toContainText(`2 of 4 hunks of ${FILE}`);
  await confirmCommit(dialog);
  const written = await original(plan);
  expect(written).toContain('export const v2 = 2 * 1;\n');
  expect(written).toContain('export const v12 = 12 * 1;\nexport const v12b = 120;\n');
  expect(written).toContain('export const v22 = 22;\n');
  expect(written).toContain('export const v23 = 23; // original\n');
  expect(written).toContain('export const v32 = 32;\n');
});

test('line choosing is off while whitespace changes are hidden, and says why', async ({ app }) => {
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, { original: { [FILE]: ORIGINAL }, changed: { [FILE]: SANDBOX } });
  const diff = await openFile(page, plan);
  await diff.diff.locator('.diff-scroll').focus();
  await page.keyboard.press('w');
  await expect(diff.diff.getByRole('note').filter({ hasText: 'Line selection is off while whitespace changes are hidden' })).toBeVisible();
  await expect(diff.hunk(1)).toBeDisabled();
  await expect(diff.hunk(1)).toHaveAttribute('title', /show them to choose lines/);
  await page.keyboard.press('w');
  await expect(diff.hunk(1)).toBeEnabled();
});

test('Space on a partly chosen file row takes the whole file, as a click does', async ({ app }) => {
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, { original: { [FILE]: ORIGINAL }, changed: { [FILE]: SANDBOX } });
  const diff = await openFile(page, plan);
  await diff.setHunk(2, false);
  await expect(fileRowBox(page)).toHaveAttribute('aria-checked', 'mixed');
  await page.locator(`.file-row-main[data-path="${FILE}"]`).focus();
  await page.keyboard.press(' ');
  await expect(fileRowBox(page)).toHaveAttribute('aria-checked', 'true');
  await diff.expectHunk(2, 'true');
});
