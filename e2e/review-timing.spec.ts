/**
 * Time from clicking a 10,000-line file in the review's file list to its diff being painted, in
 * the browser host (`bindery serve` + Chromium) on a real sandbox: cold (the file's two sides
 * fetched from main and diffed) after a reload, five times. Printed, and written to
 * e2e/artifacts/review-timing.json.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { ReviewPage } from './pages/review-pages.ts';
import { seedPlan } from './pages/review-seed.ts';
import { Workspace } from './pages/workspace.ts';

/** The few browser globals used inside page.evaluate (the Node tsconfig has no DOM library). */
interface BrowserElement {
  querySelector(selector: string): BrowserElement | null;
  click(): void;
}
declare const document: { querySelector(selector: string): BrowserElement | null };
declare function requestAnimationFrame(callback: () => void): number;

const LINES = 10_000;

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

function bigFile(edit: boolean): string {
  const lines: string[] = [];
  for (let i = 0; i < LINES; i++) {
    const changed = edit && i % 50 === 7;
    lines.push(`export const value${i} = compute(${i}, '${changed ? 'updated' : 'original'} entry ${i}');`);
  }
  return `${lines.join('\n')}\n`;
}

test('click-to-paint of a 10,000-line diff', async ({ app }) => {
  const edited = await workspace.file('edited-big.ts', bigFile(true));
  const plan = await seedPlan(app.dataDir, workspace, {
    repo: 'big-repo',
    tool: 'bulk-edit',
    project: 'perf',
    run: `cp '${edited}' big.ts && printf 'touched\\n' >> README.md`,
    original: { 'big.ts': bigFile(false) },
    changed: { 'big.ts': bigFile(true), 'README.md': '# big-repo\ntouched\n' },
  });

  const page = app.page;
  const review = new ReviewPage(page);
  const showReadme = (hash: string) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  };
  const readmeHash = `#/plans/${plan.planId}/review/${plan.sandboxId}/README.md`;
  await page.evaluate(showReadme, readmeHash);
  await expect(review.diff('README.md')).toBeVisible();

  const runs: number[] = [];
  const fetches: number[] = [];
  for (let i = 0; i < 5; i++) {
    if (i > 0) {
      // A reload empties the window's caches: each click fetches and diffs the file cold.
      await page.evaluate(showReadme, readmeHash);
      await page.reload();
      await expect(review.diff('README.md')).toBeVisible();
    }
    await expect(review.file('big.ts')).toBeVisible();
    runs.push(
      await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const start = performance.now();
            const poll = () => {
              const view = document.querySelector('[aria-label="Changes in big.ts"]');
              if (view?.querySelector('.diff-row')) {
                // The rows are in the DOM: the next frame paints them.
                requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
                return;
              }
              requestAnimationFrame(poll);
            };
            document.querySelector('.file-row-main[data-path="big.ts"]')?.click();
            poll();
          }),
      ),
    );
    await expect(review.diff('big.ts')).toContainText('updated entry 7');
    // The part spent fetching the two sides from main (request to last byte).
    fetches.push(
      await page.evaluate(() => {
        const entries = performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/api/fileDiff'));
        const last = entries.at(-1) as { startTime: number; responseEnd: number } | undefined;
        return last ? last.responseEnd - last.startTime : NaN;
      }),
    );
  }
  const sorted = [...runs].sort((a, b) => a - b);
  const summary = {
    lines: LINES,
    changedLines: (LINES / 50) * 2,
    clickToPaintMs: runs.map(Math.round),
    medianMs: Math.round(sorted[2] ?? NaN),
    fetchMs: fetches.map(Math.round),
  };
  console.log(
    `[review timing] click-to-paint of a ${LINES}-line diff: ${summary.clickToPaintMs.join(', ')} ms (median ${summary.medianMs} ms), of which fetching: ${summary.fetchMs.join(', ')} ms`,
  );
  await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
  await fs.writeFile(path.join(ARTIFACTS_DIR, 'review-timing.json'), `${JSON.stringify(summary, null, 2)}\n`);
  test.info().annotations.push({ type: 'timing', description: JSON.stringify(summary) });
  expect(runs).toHaveLength(5);
});
