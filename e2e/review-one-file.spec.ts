/**
 * Opening one file reads that file and nothing else (issue 22), through `bindery serve` in
 * Chromium with the test build's counters (BINDERY_TEST_COUNTERS=1, GET /__test/counters): on a
 * real repository's sandbox of ~300 files with 20 changes, a click on a modified file reads its two
 * sides and lists nothing again. A rename with edits shows its likeness ("R 93%") in its row and
 * in the diff header. Behaviour, not timing.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, saveScreenshot, test } from './fixtures.ts';
import { seedPlan, showReview, type SeededPlan } from './pages/review-seed.ts';
import { Workspace } from './pages/workspace.ts';
import { startServe, type ServeProcess } from './serve-process.ts';

// Seeding runs the CLI five times, slow on a busy machine.
test.setTimeout(240_000);

const FILES = 300;
const name = (i: number) => `src/module-${String(i).padStart(3, '0')}.ts`;
const text = (i: number) => Array.from({ length: 30 }, (_, line) => `export const value${i}_${line} = ${i * 100 + line};`).join('\n') + '\n';

let workspace: Workspace;
let dataDir: string;
let server: ServeProcess | null = null;
test.beforeEach(async () => {
  workspace = await Workspace.create();
  dataDir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'bindery-e2e-data-')));
});
test.afterEach(async () => {
  await server?.stop();
  server = null;
  await workspace.dispose();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A repository of 300 files and a plan whose sandbox holds 20 changes: 17 modified, one added, one deleted, one renamed with edits. */
async function seed(): Promise<SeededPlan> {
  // Two of 30 lines changed on the way: a rename with edits.
  const moved = text(100).replace('value100_3 =', 'renamed100_3 =').replace('value100_4 =', 'renamed100_4 =');
  return seedPlan(dataDir, workspace, {
    repo: 'app',
    original: Object.fromEntries(Array.from({ length: FILES }, (_, i) => [name(i), text(i)])),
    changed: {
      ...Object.fromEntries(Array.from({ length: 17 }, (_, k) => [name(k + 1), `${text(k + 1)}export const edited${k + 1} = true;\n`])),
      'src/added.ts': 'export const added = 1;\n',
      [name(200)]: null,
      [name(100)]: null,
      'src/moved.ts': moved,
    },
  });
}

test('a click on a modified file reads its two sides and lists nothing again', async ({ page }) => {
  const plan = await seed();
  server = await startServe(dataDir, { BINDERY_TEST_COUNTERS: '1' });
  const counters = async (method: 'GET' | 'DELETE') => {
    const answer = await fetch(`${server!.origin}/__test/counters`, { method, headers: { 'X-Bindery-Token': server!.token } });
    expect(answer.status).toBe(200);
    return (await answer.json()) as { sidesRead: number; detections: number };
  };
  await page.goto(server.url);
  const review = await showReview(page, plan, name(1));
  await expect(review.diff(name(1)).locator('.diff-row').first()).toBeVisible({ timeout: 30_000 });
  await expect(review.files().locator('.file-row-main')).toHaveCount(20);

  // A rename with edits: its likeness beside the R, in the row and in the diff header.
  const likeness = review.row('src/moved.ts').locator('.status-letter');
  await expect(likeness).toHaveText(/^R 9\d%$/);
  const shown = (await likeness.textContent())!.slice(2);
  await review.file('src/moved.ts').click();
  await expect(review.diff('src/moved.ts').locator('.diff-status')).toHaveText(`R ${shown}`);
  await expect(review.diff('src/moved.ts').locator('.diff-row').first()).toBeVisible();
  await saveScreenshot(page, 'review-rename-similarity');

  // Let the first look settle (the watcher's start, the list), then count one click alone.
  await page.waitForTimeout(1500);
  await counters('DELETE');
  await review.file(name(9)).click();
  await expect(review.diff(name(9)).locator('.diff-row').first()).toBeVisible();
  await expect(review.diff(name(9))).toContainText('edited9');
  await page.waitForTimeout(1000);
  expect(await counters('GET')).toMatchObject({ sidesRead: 2, detections: 0 });
});
