/**
 * The diff header's "More diff options" menu by keyboard alone, in the narrowest header (a
 * 1024x768 window with the notes panel open): Enter opens it, Tab reaches its options, Esc closes
 * it and puts focus back on the button that opened it, and tabbing past its last option closes it
 * rather than leaving it drawn over the diff.
 */
import { expect, test } from './fixtures.ts';
import { NotesUi } from './pages/notes-page.ts';
import { seedPlan, showReview } from './pages/review-seed.ts';
import { Workspace } from './pages/workspace.ts';

const FILE = 'src/checkout/payment/validation/luhn-checksum.ts';
const LINES = Array.from({ length: 30 }, (_, i) => `export const step${i + 1} = ${i + 1};`).join('\n') + '\n';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

test('the More diff options menu works by keyboard: Esc returns focus, tabbing out closes it', async ({ app, pageErrors }) => {
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, {
    original: { [FILE]: LINES },
    changed: { [FILE]: LINES.replace('step5 = 5', 'step5 = 50') },
  });
  await page.setViewportSize({ width: 1024, height: 768 });
  const review = await showReview(page, plan, FILE);
  const diff = review.diff(FILE);
  await expect(diff).toBeVisible({ timeout: 15_000 });
  await new NotesUi(page).openPanel();
  const more = diff.getByRole('button', { name: 'More diff options' });
  await expect(more).toBeVisible();
  const whitespace = diff.getByRole('button', { name: 'Hide whitespace changes' });

  await more.focus();
  await page.keyboard.press('Enter');
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(diff.getByRole('button', { name: 'Find in diff' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(whitespace).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(whitespace).toBeHidden();
  await expect(more).toBeFocused();

  // Enter opens it again; Tab past the layout toggle (its last option) leaves it closed behind.
  await page.keyboard.press('Enter');
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  const layout = diff.getByRole('radiogroup', { name: 'Diff layout' });
  await expect(layout).toBeVisible();
  for (let i = 0; i < 8 && (await more.getAttribute('aria-expanded')) === 'true'; i++) await page.keyboard.press('Tab');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(layout).toBeHidden();
  expect(await diff.locator('.diff-header-options').evaluate((el) => el.contains(el.ownerDocument.activeElement))).toBe(false);
  expect(pageErrors).toEqual([]);
});
