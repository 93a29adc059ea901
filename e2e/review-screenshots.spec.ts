/**
 * The pictures issue 22 asks for, taken in one seeded review through `bindery serve`: the flat
 * file list, a rename with edits ("R 9x%"), the three-way conflict view and the "Disconnected,
 * retrying" bar, each light and dark at 1280x800 and 1024x768, into e2e/artifacts/screenshots/
 * as review-<state>-<scheme>-<size>.png. Each state is checked before it is pictured, and the
 * pictures are for a person to look at.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { seedPlan, showReview } from './pages/review-seed.ts';
import { Workspace } from './pages/workspace.ts';

test.setTimeout(240_000);

const SCREENSHOTS = path.join(ARTIFACTS_DIR, 'screenshots');
const SIZES = [
  [1280, 800],
  [1024, 768],
] as const;

const code = (name: string, lines: number) =>
  Array.from({ length: lines }, (_, i) => `export const ${name}${i + 1} = ${i + 1}; // ${name} step ${i + 1}`).join('\n') + '\n';
const NOTES = 'Shipping notes\n\nParcels leave on Monday.\nReturns within 30 days.\n';
const GUIDE = code('guide', 30);

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

/** The current state at both sizes, light and dark; the page ends at 1280x800, light. */
async function shoot(page: Page, name: string): Promise<void> {
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await page.mouse.move(1, height - 1);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(SCREENSHOTS, `review-${name}-${scheme}-${width}x${height}.png`), animations: 'disabled', caret: 'hide' });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** How wide a part of a path is drawn, and how wide its whole text would be. */
async function widths(part: Locator): Promise<{ box: number; text: number; x: number; right: number }> {
  return part.evaluate((el) => {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    const box = el.getBoundingClientRect();
    return { box: box.width, text: range.getBoundingClientRect().width, x: box.x, right: box.right };
  });
}

/**
 * A rename in the diff header at the page's size: the new file name whole and inside the header's
 * path; folders give way first, so the old name is cut only once every folder is gone.
 */
async function expectRenameFits(diff: Locator, label: string): Promise<void> {
  const path = await diff.locator('.diff-path').boundingBox();
  const name = await widths(diff.locator('.diff-rename > .diff-path-name'));
  expect(name.text, `${label}: the new file name is not cut`).toBeLessThanOrEqual(name.box + 0.01);
  expect(name.x, `${label}: the new file name starts inside the path`).toBeGreaterThanOrEqual(path!.x - 0.5);
  expect(name.right, `${label}: the new file name ends inside the path`).toBeLessThanOrEqual(path!.x + path!.width + 0.5);
  const old = await widths(diff.locator('.diff-rename > .diff-path-old'));
  if (old.text > old.box + 0.01) {
    for (const dir of await diff.locator('.diff-rename > .diff-path-dir').all()) {
      expect((await widths(dir)).box, `${label}: every folder gone before the old name is cut`).toBeLessThan(1);
    }
  }
}

test('screenshots: flat list, a similarity rename, the three-way conflict view, the disconnected bar', async ({ app, pageErrors }) => {
  test.skip(app.kind !== 'web', 'The disconnected bar is the web host’s: Electron has no connection to lose.');
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, {
    repo: 'shop',
    original: {
      'docs/old-guide.md': GUIDE,
      'docs/shipping-notes.md': NOTES,
      'src/checkout/payment/validation/luhn-checksum.ts': code('luhn', 20),
      'src/checkout/cart/cart-totals.ts': code('cart', 20),
      'src/catalog/price-list.ts': code('price', 20),
    },
    changed: {
      'docs/old-guide.md': null,
      // Two of thirty lines edited on the way: a rename by likeness, as git finds it.
      'docs/guide/getting-started.md': GUIDE.replace('guide3 = 3;', 'guide3 = 30;').replace('guide7 = 7;', 'guide7 = 70;'),
      'docs/shipping-notes.md': NOTES.replace('Monday', 'Tuesday'),
      'src/checkout/payment/validation/luhn-checksum.ts': code('luhn', 20).replace('luhn5 = 5;', 'luhn5 = 50;'),
      'src/checkout/cart/cart-totals.ts': `${code('cart', 20)}export const cartRounding = 'half-up';\n`,
      'src/catalog/price-list.ts': null,
      'src/catalog/price-list-2024-with-a-rather-long-name.ts': code('newprice', 8),
    },
  });
  // Meanwhile the original changes the same line: a conflict that needs a person.
  await fs.writeFile(path.join(plan.repo, 'docs/shipping-notes.md'), NOTES.replace('Monday', 'Wednesday'));

  const rename = 'docs/guide/getting-started.md';
  const review = await showReview(page, plan, rename);
  await expect(review.diff(rename)).toBeVisible({ timeout: 15_000 });
  await page.getByRole('radio', { name: 'Flat' }).click();
  await expect(review.row(rename).locator('.status-letter')).toHaveText(/^R 9\d%$/);
  await expect(review.diff(rename).locator('.diff-status')).toHaveText(/^R 9\d%$/);
  await expect(review.row('docs/shipping-notes.md')).toContainText('conflict', { timeout: 15_000 });
  // Wider too, where the folders and the old name have room to give way in their order.
  for (const [width, height] of [...SIZES, [1440, 900], [1600, 900]] as const) {
    await page.setViewportSize({ width, height });
    await expectRenameFits(review.diff(rename), `${width}x${height}`);
  }
  await shoot(page, 'flat-list-rename');

  const dialog = await review.startCommit();
  const conflicts = dialog.getByRole('region', { name: 'Conflicts' });
  await expect(conflicts.getByRole('table', { name: 'Three-way view: base, original, sandbox' })).toBeVisible();
  await shoot(page, 'three-way-conflict');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The host goes away: the bar, and the actions held.
  await app.server!.stop();
  await expect(page.getByTestId('connection-bar')).toContainText('Disconnected, retrying');
  await expect(page.getByRole('button', { name: /^Commit (all|selected)/ })).toBeDisabled();
  await shoot(page, 'disconnected');
  expect(pageErrors).toEqual([]);
});
