/**
 * The review's file list and keys through `bindery serve` on a real sandbox: each path once in the
 * flat list (muted folder, bold name, full path in a title), conflicts pinned on top, pinned
 * folder headers while a tree scrolls, added files opening unified, the resizable file panel
 * (keys, drag, remembered), one Tab stop for the list with arrows and Space inside, j/k between
 * files, n/p between changes, "/" to filter, Ctrl+Enter to commit and "?" for the help.
 * Screenshots of the flat list, light and dark, at 1280x800 and 1024x768 go to e2e/artifacts/.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import type { ReviewPage } from './pages/review-pages.ts';
import { seedPlan, showReview } from './pages/review-seed.ts';
import { Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

const module = (name: string, lines = 40) =>
  Array.from({ length: lines }, (_, i) => `export const ${name}${i} = ${i}; // line ${i}`).join('\n') + '\n';

/** The files of the original: a web app's shape, with deep folders. */
const ORIGINAL: Record<string, string> = {
  'package.json': '{ "name": "storefront" }\n',
  'src/app.ts': module('app'),
  'src/checkout/cart.ts': module('cart'),
  'src/checkout/payment/card-form.tsx': module('cardForm'),
  'src/checkout/payment/validation/luhn.ts': module('luhn'),
  'src/components/buttons/primary-button.tsx': module('primary'),
  'src/legacy/old-banner.ts': module('banner'),
  'docs/architecture/decisions/0001-use-typescript.md': '# Use TypeScript\n',
};

/** Sets up a plan with a sandbox holding every kind of change, and opens its review. */
async function openReview(app: { dataDir: string; page: Page }): Promise<{ review: ReviewPage; sandboxPath: string }> {
  const providers = Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`src/checkout/payment/providers/provider-${String(i).padStart(2, '0')}.ts`, module(`p${i}`, 5)]),
  );
  const plan = await seedPlan(app.dataDir, workspace, {
    repo: 'storefront',
    tool: 'refactor',
    project: 'shop',
    original: ORIGINAL,
    changed: {
      // Modified in three places, so n/p have changes to walk.
      'src/app.ts': module('app').replace('line 3', 'line three').replace('line 20', 'line twenty').replace('line 36', 'line thirty-six'),
      'src/checkout/payment/validation/luhn.ts': module('luhn').replace('line 5', 'checksum'),
      'src/checkout/payment/validation/luhn.test.ts': module('luhnTest', 12),
      'src/components/buttons/secondary-button.tsx': module('secondary', 8),
      'src/legacy/old-banner.ts': null,
      // Enough files in one deep folder that the tree scrolls under its pinned header.
      ...providers,
      // Changed in both: a conflict.
      'src/checkout/cart.ts': module('cart').replace('line 1', 'sandbox edit'),
    },
  });
  await fs.writeFile(path.join(plan.repo, 'src/checkout/cart.ts'), module('cart').replace('line 2', 'edited in the original'));

  const review = await showReview(app.page, plan, 'src/app.ts');
  await expect(review.file('src/app.ts')).toBeVisible();
  // The conflict is pinned at the top of the list, above the selected file scrolled into view.
  await review.files().evaluate((list) => {
    (list as unknown as { scrollTop: number }).scrollTop = 0;
  });
  await expect(review.row('src/checkout/cart.ts')).toContainText('conflict', { timeout: 15_000 });
  return { review, sandboxPath: plan.sandboxPath };
}

async function shot(page: Page, name: string): Promise<void> {
  await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`) });
}

test('the flat list shows each path once, conflicts first; the tree pins its folders', async ({ app }) => {
  const page = app.page;
  const { review } = await openReview(app);
  await page.getByRole('radio', { name: 'Flat' }).click();

  const deep = review.file('src/checkout/payment/validation/luhn.ts');
  await expect(deep).toHaveAttribute('title', 'src/checkout/payment/validation/luhn.ts');
  await expect(deep.locator('.file-row-folder')).toHaveText('src/checkout/payment/validation/');
  await expect(deep.locator('.file-row-file')).toHaveText('luhn.ts');
  // The path once: the row's text holds it exactly once.
  const text = (await deep.innerText()).replace(/\s+/g, '');
  expect(text.split('src/checkout/payment/validation/luhn.ts')).toHaveLength(2);
  // Conflicts first, under their own heading.
  const firstFile = review.files().locator('.file-row-main').first();
  await expect(firstFile).toHaveAttribute('data-path', 'src/checkout/cart.ts');
  await expect(review.files().locator('.file-section').first()).toContainText('Conflicts');

  for (const [width, height] of [
    [1280, 800],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await shot(page, `review-flat-list-${width}x${height}`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, `review-flat-list-${width}x${height}-dark`);
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The tree: scrolled into the providers folder, its folders stay pinned on top.
  await page.setViewportSize({ width: 1280, height: 560 });
  await page.getByRole('radio', { name: 'Tree' }).click();
  await review.files().evaluate((list) => {
    (list as unknown as { scrollTop: number }).scrollTop = 28 * 8;
  });
  const pinned = page.locator('.file-list-pinned');
  await expect(pinned).toContainText('providers');
  await expect(pinned).toContainText('checkout/payment');
  await shot(page, 'review-tree-pinned-folders');
  await page.setViewportSize({ width: 1280, height: 800 });

  // An added file opens unified.
  await page.getByRole('radio', { name: 'Flat' }).click();
  await review.select('src/components/buttons/secondary-button.tsx');
  await expect(page.getByRole('radio', { name: 'Unified' })).toHaveAttribute('aria-checked', 'true');
  await review.select('src/app.ts');
  await expect(page.getByRole('radio', { name: 'Split' })).toHaveAttribute('aria-checked', 'true');
});

test('the file panel resizes by keys and by drag, and keeps its width', async ({ app }) => {
  const page = app.page;
  await openReview(app);
  const handle = page.getByRole('separator', { name: 'Resize the file list' });
  await expect(handle).toHaveAttribute('aria-valuenow', '296');
  await handle.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(handle).toHaveAttribute('aria-valuenow', '376');
  const panel = page.locator('#review-file-panel');
  expect(Math.round((await panel.boundingBox())!.width)).toBe(376);

  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + 0.5, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + 60, box.y + 100, { steps: 4 });
  await page.mouse.up();
  await expect(handle).toHaveAttribute('aria-valuenow', /^4(3[0-9]|4[0-9])$/);
  const dragged = await handle.getAttribute('aria-valuenow');

  await page.reload();
  await expect(page.getByRole('separator', { name: 'Resize the file list' })).toHaveAttribute('aria-valuenow', dragged!);
});

test('keys: one Tab stop, arrows and Space in the list, j/k, n/p, /, Ctrl+Enter and ?', async ({ app }) => {
  const page = app.page;
  const { review } = await openReview(app);
  await page.getByRole('radio', { name: 'Flat' }).click();
  const list = review.files();

  // One Tab stop: the selected row; Tab leaves the list, Shift+Tab comes back to that row.
  await expect(list.locator('[tabindex="0"]')).toHaveCount(1);
  await review.file('src/app.ts').click();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('separator', { name: 'Resize the file list' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(review.file('src/app.ts')).toBeFocused();

  // Arrows move the selection and the focus; Space toggles the row's checkbox and nothing else.
  await page.keyboard.press('ArrowDown');
  const next = 'src/checkout/payment/providers/provider-00.ts';
  await expect(review.file(next)).toBeFocused();
  await expect(review.file(next)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Space');
  await expect(review.commitBox(next)).not.toBeChecked();
  await expect(review.file(next)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Space');
  await expect(review.commitBox(next)).toBeChecked();
  await page.keyboard.press('ArrowUp');
  await expect(review.file('src/app.ts')).toBeFocused();

  // j/k walk the files wherever focus is; n/p walk the changes of the diff.
  await page.keyboard.press('j');
  await expect(review.file(next)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('k');
  await expect(review.file('src/app.ts')).toHaveAttribute('aria-selected', 'true');
  const nav = review.diff('src/app.ts').getByRole('group', { name: 'Changes' });
  await page.keyboard.press('n');
  await expect(nav).toContainText('1 / 3');
  await page.keyboard.press('n');
  await expect(nav).toContainText('2 / 3');
  await page.keyboard.press('p');
  await expect(nav).toContainText('1 / 3');
  // Inside the diff, j still moves to the next file (not to the next change).
  await review.diff('src/app.ts').getByRole('table').focus();
  await page.keyboard.press('j');
  await expect(review.file(next)).toHaveAttribute('aria-selected', 'true');

  // "/" focuses the filter; Escape clears it, then goes back to the list.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('/');
  const filter = page.getByRole('searchbox', { name: 'Filter files' });
  await expect(filter).toBeFocused();
  await page.keyboard.type('luhn');
  await expect(list.locator('.file-row-main')).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(filter).toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(list.locator('.file-row-main[tabindex="0"]')).toBeFocused();

  // Ctrl+Enter opens the commit confirmation (it commits nothing by itself).
  await page.keyboard.press('Control+Enter');
  const dialog = review.dialog(/^Commit to /);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('1 conflict to settle');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // "?" lists the shortcuts.
  await page.keyboard.press('?');
  const help = review.dialog('Keyboard shortcuts');
  await expect(help).toContainText('Next or previous file');
  await expect(help).toContainText('Next or previous change');
  await expect(help).toContainText('Commit the selected files');
  await shot(page, 'review-shortcuts-help');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
});
