/**
 * Time from clicking a 10,000-line file in the review's file list to its diff being painted, in
 * the browser host (`bindery serve` + Chromium) on a real sandbox: cold (the file's two sides
 * fetched from main and diffed) after a reload, five times. Printed, and written to
 * e2e/artifacts/review-timing.json.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { ReviewPage } from './pages/review-pages.ts';
import { bindery, Workspace } from './pages/workspace.ts';

/** The few browser globals used inside page.evaluate (the Node tsconfig has no DOM library). */
interface BrowserElement {
  querySelector(selector: string): BrowserElement | null;
  click(): void;
}
declare const document: { querySelector(selector: string): BrowserElement | null };
declare function requestAnimationFrame(callback: () => void): number;

const LINES = 10_000;
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'E2E',
  GIT_AUTHOR_EMAIL: 'e2e@x.invalid',
  GIT_COMMITTER_NAME: 'E2E',
  GIT_COMMITTER_EMAIL: 'e2e@x.invalid',
};

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
  const repo = await workspace.gitRepo('big-repo');
  await fs.writeFile(path.join(repo, 'big.ts'), bigFile(false));
  execFileSync('git', ['add', '-A'], { cwd: repo, env: GIT_ENV });
  execFileSync('git', ['commit', '-q', '-m', 'big file'], { cwd: repo, env: GIT_ENV });
  const edited = await workspace.file('edited-big.ts', bigFile(true));
  const tool = await workspace.file(
    'tool.yaml',
    `name: bulk-edit\nrun: ${JSON.stringify(`cp '${edited}' big.ts && printf 'touched\\n' >> README.md`)}\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n`,
  );
  await bindery(
    app.dataDir,
    'resources',
    'add',
    'local/big-repo',
    '--type',
    'git-checkout',
    '--location',
    repo,
  );
  await bindery(app.dataDir, 'projects', 'add', 'perf');
  await bindery(app.dataDir, 'projects', 'link', 'perf', 'local/big-repo');
  await bindery(app.dataDir, 'tools', 'import', tool);
  const plan = (await bindery(app.dataDir, 'plans', 'create', 'bulk-edit', '--project', 'perf')) as {
    plan_id: string;
    sandboxes: Array<{ id: string; path: string }>;
  };
  const sandbox = plan.sandboxes[0]!;
  await fs.copyFile(edited, path.join(sandbox.path, 'big.ts'));
  await fs.appendFile(path.join(sandbox.path, 'README.md'), 'touched\n');

  const page = app.page;
  const review = new ReviewPage(page);
  const showReadme = (hash: string) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  };
  const readmeHash = `#/plans/${plan.plan_id}/review/${sandbox.id}/README.md`;
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
