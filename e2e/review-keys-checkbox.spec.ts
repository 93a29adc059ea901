/**
 * The review's keys after a file's checkbox is clicked with the mouse: focus then sits on a
 * checkbox, which is not a text field, so j/k, "/" and the list's arrows still work. And the diff
 * header in the narrow panel of a 1024x768 window (screenshots, light and dark, in e2e/artifacts/).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
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

const ORIGINAL = { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' };
const CHANGED = { 'a.txt': 'a2\n', 'b.txt': 'b2\n', 'c.txt': 'c2\n' };

test('j/k, arrows and "/" still work with focus on a checkbox', async ({ app }) => {
  const page = app.page;
  const seeded = await seedReview(app, workspace, ORIGINAL, CHANGED);
  await seeded.open('a.txt');
  const { review } = seeded;
  await page.getByRole('radio', { name: 'Flat' }).click();

  // A click on b's checkbox leaves focus there; j moves to the next file all the same.
  const box = review.commitBox('b.txt');
  await box.click();
  await expect(box).toBeFocused();
  await expect(box).not.toBeChecked();
  await page.keyboard.press('j');
  await expect(review.file('b.txt')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('k');
  await expect(review.file('a.txt')).toHaveAttribute('aria-selected', 'true');

  // The arrows move in the list from a checkbox as from its row.
  await box.click();
  await expect(box).toBeChecked();
  await page.keyboard.press('ArrowDown');
  await expect(review.file('c.txt')).toBeFocused();

  // "Select all" is a checkbox too: "/" from there focuses the filter.
  await page.getByRole('checkbox', { name: 'Select all files for commit' }).focus();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Filter files' })).toBeFocused();
  await expect(page.getByRole('searchbox', { name: 'Filter files' })).toHaveValue('');

  // The help: every key column ends before its description starts ("Enter / Shift+Enter" too).
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  const overlaps = await help.locator('.shortcut-item').evaluateAll((items) =>
    items.flatMap((item) => {
      const keys = item.querySelector('dt')!.getBoundingClientRect();
      const text = item.querySelector('dd')!.getBoundingClientRect();
      const last = [...item.querySelectorAll('dt kbd')].map((kbd) => kbd.getBoundingClientRect().right);
      return Math.max(keys.right, ...last) > text.left ? [item.textContent] : [];
    }),
  );
  expect(overlaps).toEqual([]);
});

test('at 1024x768 the diff header keeps the path and every tool inside the panel', async ({ app }) => {
  const page = app.page;
  await page.setViewportSize({ width: 1024, height: 768 });
  const deep = 'src/checkout/payment/validation/luhn.ts';
  const seeded = await seedReview(app, workspace, { [deep]: 'a\nb\nc\n' }, { [deep]: 'a\nB\nc\n' });
  const diff = await seeded.open(deep);
  const header = diff.locator('.diff-header');
  const split = header.getByRole('radio', { name: 'Split' });
  await expect(split).toBeVisible();
  const frame = (await header.boundingBox())!;
  const toggle = (await split.boundingBox())!;
  expect(toggle.x + toggle.width).toBeLessThanOrEqual(frame.x + frame.width);
  // The file's name is shown, not squeezed to nothing by the tools.
  const name = (await header.locator('.diff-path').boundingBox())!;
  expect(name.width).toBeGreaterThan(60);
  await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `review-header-1024x768-${scheme}.png`) });
    // The file list's status letter is readable on its colour (WCAG AA, 4.5:1), in either theme.
    const ratio = await page.locator('.file-list .status-letter').first().evaluate((element) => {
      const style = element.ownerDocument.defaultView!.getComputedStyle(element);
      const luminance = (css: string) => {
        const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => Number(v) / 255);
        const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
      };
      const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
      return (light! + 0.05) / (dark! + 0.05);
    });
    expect(ratio, `status letter contrast in the ${scheme} theme`).toBeGreaterThanOrEqual(4.5);
  }
});
