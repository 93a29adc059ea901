/**
 * The diff viewer's options through `bindery serve` on a real git repository (issue 23, item 4):
 * hide whitespace changes (remembered across a reload), expand context 20 lines at a time and the
 * whole file, find (Ctrl+F, Enter / Shift+Enter, "n of m", Esc), the warnings for hidden
 * bidirectional characters and a whole-file line-ending change, and the keys in the "?" help.
 * Screenshots of the find bar, light and dark, at 1280x800 go to e2e/artifacts/.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { seedReview } from './pages/review-seed.ts';
import { Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

const TOTAL = [
  'export function total(items: number[]): number {',
  '  let sum = 0;',
  '  for (const item of items) {',
  '    sum += item;',
  '  }',
  '  return sum;',
  '}',
  '',
].join('\n');

/** The same function re-indented to four spaces, with one real change. */
const TOTAL_REINDENTED = TOTAL.replace(/^( +)/gm, (spaces) => spaces.repeat(2)).replace(
  'let sum = 0;',
  'let sum = 0; // running total',
);

const long = (edit: (i: number) => string | null = () => null) =>
  Array.from({ length: 240 }, (_, i) => {
    const n = i + 1;
    const base = [10, 120, 230].includes(n) ? `export const v${n} = ${n}; // needle ${n}` : `export const v${n} = ${n};`;
    return edit(n) ?? base;
  }).join('\n') + '\n';

const ORIGINAL = {
  'src/total.ts': TOTAL,
  'src/spacing.ts': 'const a = 1;\nconst b = 2;\n',
  'src/long.ts': long(),
  'src/access.ts': 'export const isAdmin = (role: string) => role === "admin";\n',
  'scripts/build.cmd': 'echo building\r\nnpm run build\r\necho done\r\n',
};

const CHANGED = {
  'src/total.ts': TOTAL_REINDENTED,
  'src/spacing.ts': 'const a  =  1;\n\tconst b = 2;\n',
  'src/long.ts': long((n) => (n === 120 ? 'export const v120 = 121; // needle 120, changed' : null)),
  // "Trojan Source": the comment hides that the check compares with a different string.
  'src/access.ts':
    'export const isAdmin = (role: string) => role === "admin";\n' +
    'export const canEdit = (role: string) => role !== "user\u202E \u2066// Check if admin\u2069 \u2066";\n',
  'scripts/build.cmd': 'echo building\nnpm run build\necho done\n',
};

async function shot(page: Page, name: string): Promise<void> {
  await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`) });
}

test('hide whitespace changes: a toggle, remembered, and a file with only whitespace changes', async ({ app }) => {
  const page = app.page;
  const seeded = await seedReview(app, workspace, ORIGINAL, CHANGED);
  let diff = await seeded.open('src/total.ts');
  const stat = diff.locator('.diff-stat');
  await expect(stat).toHaveAttribute('aria-label', '5 lines added, 5 lines removed');
  const toggle = diff.getByRole('button', { name: 'Hide whitespace changes' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(stat).toHaveAttribute('aria-label', '1 line added, 1 line removed');
  await expect(diff.locator('.diff-note', { hasText: 'whitespace hidden' })).toBeVisible();
  // Unchanged-but-reindented lines are drawn as context, with the new indentation.
  await expect(diff.locator('.diff-code.is-context', { hasText: 'for (const item of items) {' }).first()).toBeVisible();

  // Remembered across a reload of the app.
  await page.reload();
  diff = await seeded.open('src/total.ts');
  await expect(diff.getByRole('button', { name: 'Hide whitespace changes' })).toHaveAttribute('aria-pressed', 'true');
  await expect(diff.locator('.diff-stat')).toHaveAttribute('aria-label', '1 line added, 1 line removed');

  // A file whose changes are all whitespace says so, and offers to show them.
  diff = await seeded.open('src/spacing.ts');
  await expect(diff).toContainText('Only whitespace changed');
  await diff.getByRole('button', { name: 'Show whitespace changes' }).click();
  await expect(diff.locator('.diff-stat')).toHaveAttribute('aria-label', '2 lines added, 2 lines removed');
  await expect(diff.getByRole('button', { name: 'Hide whitespace changes' })).toHaveAttribute('aria-pressed', 'false');

  // The key w toggles it while the diff has focus.
  await diff.getByRole('table').focus();
  await page.keyboard.press('w');
  await expect(diff).toContainText('Only whitespace changed');
  // Focus stays in the viewer when the table gives way to the panel, so w works both ways.
  await page.keyboard.press('w');
  await expect(diff.getByRole('table')).toBeFocused();
});

test('expand context 20 lines above or below a hunk, or the whole file', async ({ app }) => {
  const page = app.page;
  const seeded = await seedReview(app, workspace, ORIGINAL, CHANGED);
  const diff = await seeded.open('src/long.ts');
  const table = diff.getByRole('table');
  const rows = async () => Number(await table.getAttribute('aria-rowcount'));
  const start = await rows();
  expect(start).toBeLessThan(20);
  const hunk = diff.locator('.diff-hunk').first();
  await hunk.getByRole('button', { name: 'Show 20 more lines above' }).click();
  await expect.poll(rows).toBe(start + 20);
  await diff.locator('.diff-hunk.is-trailing').getByRole('button', { name: 'Show 20 more lines below' }).click();
  await expect.poll(rows).toBe(start + 40);

  const whole = diff.getByRole('button', { name: 'Show the whole file' });
  await whole.click();
  await expect(whole).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(rows).toBeGreaterThanOrEqual(240);
  await expect(diff.locator('.diff-hidden-count')).toHaveCount(0);
  // e goes back to the changes with their context.
  await table.focus();
  await page.keyboard.press('e');
  await expect.poll(rows).toBe(start);
  await expect(whole).toHaveAttribute('aria-pressed', 'false');
});

test('find in the diff: Ctrl+F, matches in collapsed lines, Enter and Shift+Enter, Esc', async ({ app }) => {
  const page = app.page;
  const seeded = await seedReview(app, workspace, ORIGINAL, CHANGED);
  const diff = await seeded.open('src/long.ts');
  const table = diff.getByRole('table');
  await table.focus();
  await page.keyboard.press('Control+f');
  const bar = diff.getByRole('search', { name: 'Find in diff' });
  const field = bar.getByRole('textbox', { name: 'Find in diff' });
  await expect(field).toBeFocused();
  await page.keyboard.type('needle');
  const count = bar.getByRole('status');
  // Lines 10 and 230 are collapsed; line 120 changed (old and new): four matches.
  await expect(count).toHaveText('1 of 4');
  const current = diff.locator('mark.diff-hit.is-current');
  const currentRow = diff.locator('.diff-row', { has: page.locator('mark.diff-hit.is-current') });
  await expect(current).toHaveCount(1);
  await expect(current).toBeInViewport();
  await expect(currentRow).toContainText('needle 10');

  await page.keyboard.press('Enter');
  await expect(count).toHaveText('2 of 4');
  await expect(currentRow).toContainText('needle 120');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(count).toHaveText('4 of 4');
  await expect(current).toBeInViewport();
  await expect(currentRow).toContainText('needle 230');
  await page.keyboard.press('Enter');
  await expect(count).toHaveText('1 of 4');
  await page.keyboard.press('Shift+Enter');
  await expect(count).toHaveText('4 of 4');
  await expect(diff.locator('mark.diff-hit').first()).toBeVisible();
  await shot(page, 'diff-find-bar-1280x800');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'diff-find-bar-1280x800-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await field.fill('no such text');
  await expect(count).toHaveText('No results');
  await page.keyboard.press('Escape');
  await expect(bar).toHaveCount(0);
  await expect(table).toBeFocused();
  await expect(diff.locator('mark.diff-hit')).toHaveCount(0);
});

test('warnings: hidden bidirectional characters and a line-ending change', async ({ app }) => {
  const page = app.page;
  const seeded = await seedReview(app, workspace, ORIGINAL, CHANGED);
  let diff = await seeded.open('src/access.ts');
  const warning = diff.getByRole('alert');
  await expect(warning).toContainText('This file contains hidden bidirectional Unicode characters');
  await expect(warning).toContainText('4 on 1 line');
  const markers = diff.locator('.diff-code .diff-bidi');
  await expect(markers).toHaveCount(4);
  await expect(markers.first()).toHaveText('U+202E');
  await expect(markers.first()).toHaveAttribute('title', /RIGHT-TO-LEFT OVERRIDE/);
  // The control characters themselves never reach the page, so nothing is reordered.
  const drawn = await diff.locator('.diff-code').allTextContents();
  expect(drawn.join('')).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  await shot(page, 'diff-bidi-warning-1280x800');

  diff = await seeded.open('scripts/build.cmd');
  // Other notes (line selection's) may share the header: look for the line-ending one.
  const endings = diff.getByRole('note').filter({ hasText: /Line endings|differ only in their endings/ });
  await expect(endings).toContainText('Line endings changed from CRLF to LF');
  await expect(diff.locator('.diff-crlf')).toHaveCount(0);
  await diff.getByRole('button', { name: 'Hide whitespace changes' }).first().click();
  await expect(diff).toContainText('Only whitespace changed');
  await expect(endings).toContainText('Lines that differ only in their endings are shown as unchanged');
});

test('the "?" help lists the find, whitespace and whole-file keys', async ({ app }) => {
  const page = app.page;
  const seeded = await seedReview(app, workspace, ORIGINAL, CHANGED);
  await seeded.open('src/total.ts');
  await page.locator('body').press('?');
  const help = seeded.review.dialog('Keyboard shortcuts');
  await expect(help).toContainText('Next or previous change');
  await expect(help).toContainText('Find in the diff');
  await expect(help).toContainText('Hide or show whitespace changes');
  await expect(help).toContainText('Show the whole file, or only the changes');
});
