/**
 * The diff viewer in Chromium, through its harness page (renderer/src/testing/diff-harness/),
 * built by Vite with an inline config and served by `vite preview` on a random port: layouts,
 * keyboard navigation, expansion, the gate, virtualization, screenshots (light and dark) and the
 * time from switching to a 10,000-line file to its first painted rows.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, preview, type PreviewServer } from 'vite';
import { expect, test } from './fixtures.ts';
import { REPO_ROOT } from './serve-process.ts';
import type { Page } from '@playwright/test';

/** The few browser globals used inside page.evaluate callbacks (the Node tsconfig has no DOM library). */
interface BrowserElement {
  querySelector(selector: string): BrowserElement | null;
  click(): void;
}
declare const document: { querySelector(selector: string): BrowserElement | null };
declare function requestAnimationFrame(callback: () => void): number;

const SCREENSHOTS = path.join(REPO_ROOT, 'e2e', 'artifacts', 'screenshots');
const HARNESS = path.join(REPO_ROOT, 'renderer', 'src', 'testing', 'diff-harness');

let server: PreviewServer | null = null;
let outDir = '';
let baseUrl = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ hostKind }) => {
  if (hostKind !== 'web') return;
  outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bindery-diff-harness-'));
  const config = {
    configFile: false as const,
    root: HARNESS,
    plugins: [react()],
    logLevel: 'warn' as const,
  };
  await build({
    ...config,
    build: { outDir, emptyOutDir: true, rollupOptions: { input: path.join(HARNESS, 'diff-harness.html') } },
  });
  server = await preview({
    ...config,
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not report a TCP address.');
  baseUrl = `http://127.0.0.1:${address.port}`;
});

test.afterAll(async () => {
  await server?.close();
  if (outDir) await fs.rm(outDir, { recursive: true, force: true });
});

test.beforeEach(({ hostKind }) => {
  test.skip(
    hostKind !== 'web',
    'The harness is a plain browser page; the Electron project has nothing more to show for it.',
  );
});

async function open(page: Page, sample: string, mode: 'split' | 'unified' = 'split', extra = '') {
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  await page.goto(`${baseUrl}/diff-harness.html?sample=${sample}&mode=${mode}${extra}`);
  await expect(page.locator('.diff-view')).toBeVisible();
  return errors;
}

async function shoot(page: Page, name: string) {
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** Waits until the worker's syntax colours reached the rows in view (large files highlight in the background). */
async function highlighted(page: Page) {
  await expect(page.locator('.diff-code .hljs-keyword').first()).toBeVisible();
}

test('a small code change shows hunks, word highlights and syntax colours in both layouts', async ({
  page,
}) => {
  const errors = await open(page, 'code');
  const table = page.getByRole('table', { name: /Side-by-side diff of src\/tools\/load-tool\.ts/ });
  await expect(table).toBeVisible();
  await expect(page.locator('.diff-hunk-text').first()).toContainText(/^@@ -\d+,\d+ \+\d+,\d+ @@/);
  await expect(page.locator('.is-add .diff-word').first()).toBeVisible();
  await expect(page.locator('.is-del .diff-word').first()).toBeVisible();
  await highlighted(page);
  await expect(page.locator('.diff-stat')).toHaveAttribute('aria-label', /^\d+ lines? added, \d+ lines? removed$/);

  // Side by side, long lines scroll sideways inside their halves; the arrow keys move both.
  await table.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.diff-canvas')).toHaveAttribute('style', /--diff-x: 80px/);
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('.diff-canvas')).toHaveAttribute('style', /--diff-x: 40px/);

  await page.getByRole('radio', { name: 'Unified' }).click();
  await expect(page.getByRole('table', { name: /Unified diff of/ })).toBeVisible();
  await expect(page.locator('.diff-unified.is-add').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('n/p (and j/k) move between changes and keep the focused change in view', async ({ page }) => {
  await open(page, 'big');
  const table = page.getByRole('table');
  await table.focus();
  const counter = page.locator('.diff-nav-count');
  await expect(counter).toContainText('changes');
  await page.keyboard.press('n');
  await expect(counter).toHaveText(/^1 \/ /);
  for (let i = 0; i < 10; i++) await page.keyboard.press('j');
  await expect(counter).toHaveText(/^11 \/ /);
  await expect(page.locator('.diff-row[data-focused]').first()).toBeInViewport();
  await page.keyboard.press('p');
  await page.keyboard.press('k');
  await expect(counter).toHaveText(/^9 \/ /);
  await expect(page.locator('.diff-row[data-focused]').first()).toBeInViewport();
  await expect(page.locator('[aria-live="polite"]')).toHaveText(/Change 9 of \d+/);
  // Switching layout keeps the same change focused and in view.
  await page.getByRole('radio', { name: 'Unified' }).click();
  await expect(counter).toHaveText(/^9 \/ /);
  await expect(page.locator('.diff-row[data-focused]').first()).toBeInViewport();
});

test('collapsed regions expand up, down and fully', async ({ page }) => {
  await open(page, 'big', 'unified');
  const table = page.getByRole('table');
  const rowCount = async () => Number(await table.getAttribute('aria-rowcount'));
  const hunk = page.locator('.diff-hunk').nth(1);
  const hidden = async () =>
    Number(((await hunk.locator('.diff-hidden-count').textContent()) ?? '').replace(/[^\d]/g, ''));
  const start = await rowCount();
  const gap = await hidden();
  expect(gap).toBeGreaterThan(40);

  await hunk.getByRole('button', { name: 'Show 20 more lines below' }).click();
  await expect.poll(rowCount).toBe(start + 20);
  expect(await hidden()).toBe(gap - 20);
  await hunk.getByRole('button', { name: 'Show 20 more lines above' }).click();
  await expect.poll(rowCount).toBe(start + 40);
  expect(await hidden()).toBe(gap - 40);
  await hunk.getByRole('button', { name: /^Show all [\d,]+ hidden lines$/ }).click();
  // The gap is gone: its lines are in, and the two hunks became one (one header row less).
  await expect.poll(rowCount).toBe(start + gap - 1);
});

test('a 10,000-line file is virtualized: few rows in the DOM, all of them reachable', async ({ page }) => {
  await open(page, 'big', 'split', '&context=all');
  const table = page.getByRole('table');
  const rowCount = Number(await table.getAttribute('aria-rowcount'));
  expect(rowCount).toBeGreaterThan(10_000);
  expect(await page.locator('.diff-row').count()).toBeLessThan(150);
  await table.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.locator('.diff-row').last()).toBeInViewport();
  expect(await page.locator('.diff-row').count()).toBeLessThan(150);
});

test('renames, binary files, images, mode changes and line endings each say what changed', async ({
  page,
}) => {
  await open(page, 'rename');
  await expect(page.getByLabel('src/utils/format-date.ts renamed to src/lib/dates/format.ts')).toBeVisible();
  await page.locator('[data-sample="rename-only"]').click();
  await expect(page.getByRole('status')).toContainText('File renamed without changes');
  await page.locator('[data-sample="binary"]').click();
  await expect(page.getByRole('group', { name: 'Binary file' })).toContainText('1.4 MB');
  await expect(page.getByRole('group', { name: 'Binary file' })).toContainText('+47.7 KB (+3%)');
  await page.locator('[data-sample="image"]').click();
  await expect(page.getByRole('img', { name: /^Before: 128 × 128 px$/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^After: 160 × 160 px$/ })).toBeVisible();
  await page.locator('[data-sample="mode"]').click();
  await expect(page.getByRole('status')).toContainText('Only the file mode changed');
  await expect(page.getByRole('status')).toContainText('mode 100644 → 100755');
  await page.locator('[data-sample="crlf"]').click();
  await expect(page.locator('.diff-note', { hasText: 'mixed line endings' })).toBeVisible();
  await expect(page.locator('.diff-noeol').first()).toBeVisible();
  await expect(page.locator('.diff-crlf').first()).toBeVisible();
});

test('the large-file gate says how large and shows the diff on request', async ({ page }) => {
  await open(page, 'gate');
  await expect(page.getByRole('group', { name: 'Large diff' })).toContainText(
    'This file has 48,213 changed lines.',
  );
  await page.getByRole('button', { name: 'Show anyway' }).click();
  await expect(page.getByRole('table', { name: /diff of data\/fixtures\.json/ })).toBeVisible({
    timeout: 20_000,
  });
  expect(await page.locator('.diff-row').count()).toBeLessThan(150);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`screenshots at 1280x800 (${scheme})`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    for (const mode of ['split', 'unified'] as const) {
      await open(page, 'code', mode);
      await highlighted(page);
      await shoot(page, `diff-code-${mode}-${scheme}`);
      await open(page, 'big', mode);
      await highlighted(page);
      await page.getByRole('table').focus();
      await page.keyboard.press('n');
      await page.keyboard.press('n');
      await expect(page.locator('.diff-row[data-focused]').first()).toBeInViewport();
      await shoot(page, `diff-big-${mode}-${scheme}`);
    }
    for (const sample of ['rename', 'binary', 'image', 'gate', 'mode', 'crlf']) {
      await open(page, sample, 'split');
      if (sample === 'image') await expect(page.getByRole('img', { name: /^After: / })).toBeVisible();
      await shoot(page, `diff-${sample}-${scheme}`);
    }
  });
}

test('time from switching to the 10,000-line file to its first painted rows', async ({ page }) => {
  await open(page, 'code');
  const runs: Array<{ firstPaint: number; highlighted: number }> = [];
  for (let i = 0; i < 5; i++) {
    await page.locator('[data-sample="code"]').click();
    await expect(page.getByRole('table', { name: /load-tool\.ts/ })).toBeVisible();
    runs.push(
      await page.evaluate(
        () =>
          new Promise<{ firstPaint: number; highlighted: number }>((resolve) => {
            const start = performance.now();
            let firstPaint = -1;
            const painted = (then: (t: number) => void) =>
              requestAnimationFrame(() => setTimeout(() => then(performance.now() - start), 0));
            const poll = () => {
              const table = document.querySelector('[role="table"][aria-label*="table.ts"]');
              if (firstPaint < 0 && table?.querySelector('.diff-row')) {
                firstPaint = 0;
                painted((t) => {
                  firstPaint = t;
                });
              }
              if (firstPaint > 0 && table?.querySelector('.hljs-keyword')) {
                painted((t) => resolve({ firstPaint, highlighted: t }));
                return;
              }
              requestAnimationFrame(poll);
            };
            document.querySelector('[data-sample="big"]')?.click();
            poll();
          }),
      ),
    );
  }
  const scroll = await page.getByRole('table').evaluate(
    (el) =>
      new Promise<{ frames: number; worstMs: number; meanMs: number }>((resolve) => {
        const gaps: number[] = [];
        let last = performance.now();
        let step = 0;
        const tick = () => {
          const now = performance.now();
          gaps.push(now - last);
          last = now;
          el.scrollTop += 400;
          if (++step < 120) requestAnimationFrame(tick);
          else
            resolve({
              frames: gaps.length,
              worstMs: Math.max(...gaps),
              meanMs: gaps.reduce((a, b) => a + b, 0) / gaps.length,
            });
        };
        requestAnimationFrame(tick);
      }),
  );
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const summary = {
    firstPaintMs: runs.map((r) => Math.round(r.firstPaint)),
    highlightedMs: runs.map((r) => Math.round(r.highlighted)),
    medianFirstPaintMs: Math.round(median(runs.map((r) => r.firstPaint))),
    medianHighlightedMs: Math.round(median(runs.map((r) => r.highlighted))),
    scroll: {
      frames: scroll.frames,
      worstFrameMs: Math.round(scroll.worstMs),
      meanFrameMs: Math.round(scroll.meanMs * 10) / 10,
    },
  };
  console.log(`diff viewer, 10,000-line file: ${JSON.stringify(summary)}`);
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  await fs.writeFile(
    path.join(REPO_ROOT, 'e2e', 'artifacts', 'diff-viewer-timing.json'),
    `${JSON.stringify(summary, null, 2)}\n`,
  );
  test.info().annotations.push({ type: 'timing', description: JSON.stringify(summary) });
  expect(runs).toHaveLength(5);
});
