/**
 * A dialog whose request fails: while it is in flight the dialog keeps the keyboard's focus (its
 * disabled buttons would drop it to the page), and when it fails the error shows, every action
 * works again and focus is back on the button that sent it, so Enter tries again. Held and failed
 * at the network with page.route (the web host only), not timed.
 */
import { expect, test } from './fixtures.ts';
import { failWith, holdRequest, STALE_REVIEW } from './pages/held-request.ts';
import { seedPlan, showReview } from './pages/review-seed.ts';
import { Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

test('a commit that fails: focus stays in the dialog while busy, then returns to Commit with the error shown', async ({ app, pageErrors }) => {
  test.skip(app.kind !== 'web', 'the request is held and failed at the web host');
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, { original: { 'a.txt': 'one\n' }, changed: { 'a.txt': 'two\n' } });
  const review = await showReview(page, plan, 'a.txt');
  await expect(review.diff('a.txt')).toBeVisible({ timeout: 15_000 });
  const release = await holdRequest(page, 'commitSandbox');
  const dialog = await review.startCommit();
  const commit = dialog.getByRole('button', { name: 'Commit 1 file' });
  await commit.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveAttribute('aria-busy', 'true');
  await expect(dialog.getByRole('button', { name: 'Committing…' })).toBeDisabled();
  // Not dropped to the page's body: the dialog holds it.
  expect(await dialog.evaluate((el) => el.contains(el.ownerDocument.activeElement))).toBe(true);
  release(failWith(STALE_REVIEW));
  await expect(dialog.getByRole('alert')).toHaveText(STALE_REVIEW);
  await expect(dialog).not.toHaveAttribute('aria-busy');
  await expect(commit).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(pageErrors).toEqual([]);
});
