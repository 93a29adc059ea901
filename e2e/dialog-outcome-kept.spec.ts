/**
 * A dialog gone before its request answers still tells how it ended: pressing Back while a commit
 * is in flight leaves the review, and the commit's outcome (done, or failed) comes as a notice in
 * the corner, kept until dismissed. A busy dialog whose host stops answering can be closed: at
 * once when the connection bar says the host is away, after 30 s otherwise ("Stop waiting"), and
 * its outcome again comes as a notice. Requests are held at the network with page.route (web host
 * only); the 30 s are Playwright's clock, not a wait.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { failWith, holdRequest, STALE_REVIEW, type Release } from './pages/held-request.ts';
import { seedPlan, showReview, type SeededPlan } from './pages/review-seed.ts';
import type { ReviewPage } from './pages/review-pages.ts';
import { Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

/** A review of one edited file, its commit dialog opened and Commit pressed, the request held. */
async function commitHeld(page: Page, dataDir: string): Promise<{ plan: SeededPlan; review: ReviewPage; release: Release }> {
  const plan = await seedPlan(dataDir, workspace, { original: { 'a.txt': 'one\n' }, changed: { 'a.txt': 'two\n' } });
  const review = await showReview(page, plan, 'a.txt');
  await expect(review.diff('a.txt')).toBeVisible({ timeout: 15_000 });
  const release = await holdRequest(page, 'commitSandbox');
  const dialog = await review.startCommit();
  await dialog.getByRole('button', { name: 'Commit 1 file' }).click();
  await expect(dialog).toHaveAttribute('aria-busy', 'true');
  return { plan, review, release };
}

const notice = (page: Page) => page.locator('.toast');

test('Back while a commit is in flight: the commit still happens and a notice says so', async ({ app, pageErrors }) => {
  test.skip(app.kind !== 'web', 'the request is held at the web host');
  const { page } = app;
  const { plan, review, release } = await commitHeld(page, app.dataDir);
  await page.goBack();
  await expect(review.dialog(/^Commit to /)).toBeHidden();
  await expect(review.files()).toBeHidden();
  release();
  await expect(notice(page)).toHaveText('Commit finished. local/site: wrote 1 file (a.txt).', { timeout: 15_000 });
  expect(await fs.readFile(path.join(plan.repo, 'a.txt'), 'utf8')).toBe('two\n');
  // Kept until dismissed: it is the only place the outcome shows.
  await notice(page).getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice(page)).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('Back while a commit is in flight: its failure is a notice too', async ({ app, pageErrors }) => {
  test.skip(app.kind !== 'web', 'the request is held and failed at the web host');
  const { page } = app;
  const { review, release } = await commitHeld(page, app.dataDir);
  await page.goBack();
  await expect(review.dialog(/^Commit to /)).toBeHidden();
  release(failWith(STALE_REVIEW));
  await expect(notice(page)).toHaveText(new RegExp(`^Commit to .+ failed: ${STALE_REVIEW.replace(/[.:]/g, '\\$&')}$`));
  await expect(notice(page)).toHaveAttribute('data-tone', 'error');
  expect(pageErrors).toEqual([]);
});

test('a busy dialog whose host goes away can be closed; the unknown outcome is said as such', async ({ app }) => {
  test.skip(app.kind !== 'web', 'the host is stopped under the web page');
  const { page } = app;
  const { review, release } = await commitHeld(page, app.dataDir);
  const dialog = review.dialog(/^Commit to /);
  await expect(dialog.getByRole('button', { name: 'Stop waiting' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeDisabled();
  await app.server!.stop();
  await expect(page.getByTestId('connection-bar')).toContainText('Disconnected');
  await expect(dialog.getByRole('status')).toContainText('Bindery is not answering.');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeEnabled();
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'screenshots', 'dialog-stop-waiting.png'), animations: 'disabled', caret: 'hide' });
  await dialog.getByRole('button', { name: 'Stop waiting' }).click();
  await expect(dialog).toBeHidden();
  release((route) => route.abort('connectionrefused'));
  await expect(notice(page)).toContainText(/^Commit to .+: Bindery did not answer, so whether it was done is not known/);
});

test('a request unanswered for 30 s: "Stop waiting" closes its dialog, and the outcome comes later', async ({ app, pageErrors }) => {
  test.skip(app.kind !== 'web', 'the request is held at the web host');
  const { page } = app;
  await page.clock.install();
  await page.reload();
  const { plan, review, release } = await commitHeld(page, app.dataDir);
  const dialog = review.dialog(/^Commit to /);
  await page.clock.fastForward(29_000);
  await expect(dialog.getByRole('button', { name: 'Stop waiting' })).toHaveCount(0);
  await page.clock.fastForward(1_500);
  await expect(dialog.getByRole('status')).toContainText('Bindery has not answered for a while.');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The review stays usable meanwhile.
  await expect(page.getByRole('button', { name: /^Commit (all|selected)/ })).toBeEnabled();
  release();
  await expect(notice(page)).toHaveText('Commit finished. local/site: wrote 1 file (a.txt).', { timeout: 15_000 });
  expect(await fs.readFile(path.join(plan.repo, 'a.txt'), 'utf8')).toBe('two\n');
  expect(pageErrors).toEqual([]);
});
