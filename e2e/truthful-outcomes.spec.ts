/**
 * Truthful outcomes (issue 22) in Chromium through `bindery serve` on real git repositories:
 * an undo that leaves a git commit says so and offers the revert commit; Merge is offered only
 * where its dry run succeeds, and a clash shows base | original | sandbox; a running tool holds
 * Commit and Discard; the inspector marks a bound folder that is missing, with "Fix location…".
 * Screenshots of the three-way view, light and dark, at 1280x800 and 1024x768 go to e2e/artifacts/.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { ActivityPage, InspectorPage } from './pages/review-pages.ts';
import { seedReview } from './pages/review-seed.ts';
import { holdRequest } from './pages/held-request.ts';
import { bindery, Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });
const LINES = Array.from({ length: 40 }, (_, i) => `line ${i + 1}: the price list keeps its order`).join('\n') + '\n';

/** A dialog whose request is in flight: it says so on its action, and no button nor Esc acts. */
async function expectAllHeld(dialog: Locator, busyLabel: string, closeLabel: string): Promise<void> {
  await expect(dialog.getByRole('button', { name: busyLabel })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: closeLabel })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeDisabled();
  await expect(dialog).toHaveAttribute('aria-busy', 'true');
  await dialog.page().keyboard.press('Escape');
  await expect(dialog).toBeVisible();
}

async function shot(page: Page, name: string): Promise<void> {
  await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`) });
}

test('an undo that leaves a git commit says so, asks first, and makes the revert commit', async ({ app, pageErrors }) => {
  const { page } = app;
  const seeded = await seedReview(app, workspace, { 'prices.txt': LINES }, { 'prices.txt': LINES.replace('line 3:', 'LINE 3:') });
  const repo = path.join(workspace.root, 'site');
  git(repo, 'config', 'user.name', 'E2E');
  git(repo, 'config', 'user.email', 'e2e@x.invalid');
  await seeded.open('prices.txt');
  const { review } = seeded;
  const dialog = await review.startCommit();
  await dialog.getByRole('checkbox', { name: /Also create a git commit/ }).check();
  await dialog.getByRole('textbox', { name: 'Commit message' }).fill('Reprice line 3');
  await dialog.getByRole('button', { name: 'Commit 1 file' }).click();
  await expect(review.outcome()).toContainText('Created git commit');
  const sha = git(repo, 'rev-parse', 'HEAD').trim();

  await page.getByRole('button', { name: 'Undo last commit' }).click();
  const confirm = review.dialog(/^Undo the last commit/);
  await expect(confirm).toContainText(`git commit ${sha.slice(0, 12)} on the branch. Undo restores the working tree only: the git commit stays on the branch.`);
  // While the undo is on its way nothing in the dialog acts: held at the network, not timed.
  const web = app.kind === 'web';
  const undoing = web ? await holdRequest(page, 'undoCommit') : null;
  await confirm.getByRole('button', { name: 'Undo commit' }).click();
  if (undoing) await expectAllHeld(confirm, 'Undoing…', 'Cancel');
  undoing?.();
  const offer = review.dialog('Commit undone; the git commit stays');
  await expect(offer).toContainText(`The git commit ${sha.slice(0, 12)} stays on the branch`);
  expect(await fs.readFile(path.join(repo, 'prices.txt'), 'utf8')).toBe(LINES);
  expect(git(repo, 'rev-parse', 'HEAD').trim()).toBe(sha);
  await shot(page, 'undo-revert-offer');
  // "Keep the git commit" while the revert commit is being made would leave its outcome untold.
  const reverting = web ? await holdRequest(page, 'revertGitCommit') : null;
  await offer.getByRole('button', { name: 'Make a revert commit' }).click();
  if (reverting) {
    await expectAllHeld(offer, 'Making the revert commit…', 'Keep the git commit');
    await shot(page, 'undo-revert-in-flight');
    reverting();
  }
  await expect(review.outcome()).toContainText(`made revert commit`);
  expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Revert "Reprice line 3"');
  expect(git(repo, 'status', '--porcelain')).toBe('');

  // The banner said what the activity log says.
  const activity = new ActivityPage(page);
  await activity.openLog();
  await expect(page.getByText(`The git commit ${sha.slice(0, 12)} stays on the branch`)).toBeVisible();
  await expect(page.getByText(/made revert commit [0-9a-f]{12} on the current branch/)).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test('Merge is offered only where the dry run succeeds; a clash shows base, original and sandbox', async ({ app, pageErrors }) => {
  const { page } = app;
  const notes = 'Shipping notes\n\nParcels leave on Monday.\nReturns within 30 days.\n';
  const seeded = await seedReview(
    app,
    workspace,
    { 'prices.txt': LINES, 'notes.md': notes },
    { 'prices.txt': LINES.replace('line 3:', 'LINE 3:'), 'notes.md': notes.replace('Monday', 'Tuesday') },
  );
  const repo = path.join(workspace.root, 'site');
  // Meanwhile the original changes too: far from the sandbox's edit in prices.txt, on the same line in notes.md.
  await fs.writeFile(path.join(repo, 'prices.txt'), LINES.replace('line 38:', 'LINE 38 (by hand):'));
  await fs.writeFile(path.join(repo, 'notes.md'), notes.replace('Monday', 'Wednesday'));
  await seeded.open('prices.txt');
  const { review } = seeded;
  await expect(review.row('notes.md')).toContainText('conflict', { timeout: 15_000 });
  await expect(review.row('prices.txt')).toContainText('conflict', { timeout: 15_000 });
  const dialog = await review.startCommit();
  const conflicts = dialog.getByRole('region', { name: 'Conflicts' });
  await conflicts.getByRole('button', { name: 'Next', exact: true }).waitFor();

  const show = async (file: string) => {
    for (let i = 0; i < 2 && !(await conflicts.locator('code').first().textContent())?.includes(file); i++) {
      const next = conflicts.getByRole('button', { name: 'Next', exact: true });
      await ((await next.isEnabled()) ? next : conflicts.getByRole('button', { name: 'Previous', exact: true })).click();
    }
    await expect(conflicts.locator('code').first()).toHaveText(file);
  };

  // notes.md: the same line changed on both sides, so no Merge; the three-way view shows all three.
  await show('notes.md');
  const threeWay = conflicts.getByRole('table', { name: 'Three-way view: base, original, sandbox' });
  await expect(threeWay).toBeVisible();
  const clash = threeWay.getByRole('row', { name: 'Conflict 1' });
  await expect(clash.getByRole('cell').nth(0)).toContainText('Parcels leave on Monday.');
  await expect(clash.getByRole('cell').nth(1)).toContainText('Parcels leave on Wednesday.');
  await expect(clash.getByRole('cell').nth(2)).toContainText('Parcels leave on Tuesday.');
  await expect(conflicts.getByRole('note')).toContainText('Merge is not offered: The same lines changed in the original and in the sandbox (1 conflicting hunk): choose Keep original or Take sandbox');
  await expect(conflicts.getByRole('radio', { name: /^Merge/ })).toHaveCount(0);
  await expect(conflicts.getByRole('radio', { name: /Keep original/ })).toBeVisible();
  for (const [width, height] of [
    [1280, 800],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await shot(page, `three-way-conflict-${width}x${height}`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, `three-way-conflict-${width}x${height}-dark`);
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // The base is there in the two-way view too.
  await conflicts.getByRole('radio', { name: 'Base → Sandbox' }).click();
  await expect(conflicts.getByRole('region', { name: 'Changes in notes.md' })).toContainText('Monday');
  await conflicts.getByRole('radio', { name: /Take sandbox/ }).click();

  // prices.txt: edits far apart, so Merge is offered and keeps both.
  await show('prices.txt');
  await expect(conflicts.getByRole('note')).toHaveCount(0);
  await conflicts.getByRole('radio', { name: /^Merge/ }).click();
  await dialog.getByRole('button', { name: 'Commit 2 files' }).click();
  await expect(review.outcome()).toContainText('wrote 2 files');
  const prices = await fs.readFile(path.join(repo, 'prices.txt'), 'utf8');
  expect([prices.includes('LINE 3:'), prices.includes('LINE 38 (by hand):')]).toEqual([true, true]);
  expect(await fs.readFile(path.join(repo, 'notes.md'), 'utf8')).toContain('Tuesday');
  expect(pageErrors).toEqual([]);
});

/** A project "shop" with one git checkout and a tool with a run command, registered through the CLI. */
async function seedRunnable(dataDir: string, run: string): Promise<string> {
  const repo = await workspace.gitRepo('shop');
  const tool = await workspace.file(
    'slow.yaml',
    `name: slow-tool\nrun: ${JSON.stringify(run)}\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n`,
  );
  await bindery(dataDir, 'resources', 'add', 'local/shop', '--type', 'git-checkout', '--location', repo);
  await bindery(dataDir, 'projects', 'add', 'shop');
  await bindery(dataDir, 'projects', 'link', 'shop', 'local/shop');
  await bindery(dataDir, 'tools', 'import', tool);
  return repo;
}

test('the run starts after provisioning, and while it runs the plan says Running and holds Commit and Discard', async ({ app, pageErrors }) => {
  const { page } = app;
  await seedRunnable(app.dataDir, "printf 'stock\\n' >> README.md; echo working; sleep 60");
  await page.reload();
  const inspector = new InspectorPage(page);
  await inspector.show('slow-tool', 'shop');
  await expect(page.getByText('Runs after provisioning')).toBeVisible();
  const plan = await inspector.provision();
  const panel = plan.runPanel();
  await expect(panel.getByRole('status')).toContainText('Running…', { timeout: 20_000 });
  await expect(plan.title()).toContainText('Running');
  await expect(plan.sandbox('local/shop')).toContainText('1 change', { timeout: 30_000 });
  await expect(page.getByRole('button', { name: /^Commit all/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Discard all' })).toBeDisabled();
  await shot(page, 'plan-running');
  const review = await plan.review('local/shop');
  await expect(page.getByRole('button', { name: /^Commit (all|selected)/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Discard…' })).toBeDisabled();
  await page.goBack();
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByRole('status')).toContainText('Stopped', { timeout: 20_000 });
  await expect(plan.title()).not.toContainText('Running');
  await expect(page.getByRole('button', { name: /^Commit all/ })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Discard all' })).toBeEnabled();
  expect(review).toBeTruthy();
  expect(pageErrors).toEqual([]);
});

test('the inspector marks a bound resource whose folder is missing, and Fix location… repairs it', async ({ app, pageErrors }) => {
  const { page } = app;
  const repo = await seedRunnable(app.dataDir, 'true');
  const moved = `${repo}-moved`;
  await fs.rename(repo, moved);
  await page.reload();
  const inspector = new InspectorPage(page);
  await inspector.show('slow-tool', 'shop');
  const slot = inspector.slot('repo');
  await expect(slot.getByRole('alert')).toContainText(`The folder of local/shop is missing: ${repo}`);
  await expect(page.getByRole('button', { name: 'Provision and run' })).toBeDisabled();
  await shot(page, 'inspector-missing-folder');
  await slot.getByRole('button', { name: 'Fix location…' }).click();
  const edit = inspector.dialog(/local\/shop/);
  await edit.getByRole('textbox', { name: /Folder/ }).fill(moved);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(slot.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Provision and run' })).toBeEnabled();
  expect(pageErrors).toEqual([]);
});
