/**
 * The review's layout at the window sizes people use (1280x800 and 1024x768), with the notes
 * panel closed and open, measured from the boxes the browser lays out: the header's actions stay
 * inside the window on one row, the diff header stays one line, an inline note's card starts where
 * its line's code starts, and a note's delete button lies inside its card. Screenshots of each
 * state, light and dark, go to e2e/artifacts/screenshots/.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { NotesUi } from './pages/notes-page.ts';
import { seedPlan, showReview } from './pages/review-seed.ts';
import { Workspace } from './pages/workspace.ts';

test.setTimeout(240_000);

const SCREENSHOTS = path.join(ARTIFACTS_DIR, 'screenshots');
const FILE = 'src/checkout/payment/validation/luhn-checksum.ts';
const LINES = Array.from({ length: 30 }, (_, i) => `export const step${i + 1} = ${i + 1};`).join('\n') + '\n';
const SIZES = [
  [1280, 800],
  [1024, 768],
] as const;

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, `${locator} has a box`).not.toBeNull();
  return found!;
}

/** Whether `inner` lies inside `outer` (a pixel of rounding allowed). */
function inside(inner: Box, outer: Box): boolean {
  return inner.x >= outer.x - 1 && inner.y >= outer.y - 1 && inner.x + inner.width <= outer.x + outer.width + 1 && inner.y + inner.height <= outer.y + outer.height + 1;
}

/** The header's actions: every one inside the window and the header, all on one row. */
async function expectHeaderFits(page: Page, label: string): Promise<void> {
  const viewport = page.viewportSize()!;
  const window = { x: 0, y: 0, width: viewport.width, height: viewport.height };
  const actions = page.locator('.review-page .page-actions > *');
  const boxes = await Promise.all((await actions.all()).map(box));
  expect(boxes.length, label).toBeGreaterThanOrEqual(5);
  for (const each of boxes) expect(inside(each, window), `${label}: an action inside the window`).toBe(true);
  const commit = await box(page.getByRole('button', { name: /^Commit (all|selected)/ }));
  expect(inside(commit, window), `${label}: Commit inside the window`).toBe(true);
  const tops = boxes.map((b) => Math.round(b.y + b.height / 2));
  expect(Math.max(...tops) - Math.min(...tops), `${label}: the actions on one row`).toBeLessThanOrEqual(2);
  // Each keeps its name for assistive tech and its words as a title, even where only its icon shows.
  await expect(page.getByRole('button', { name: 'Undo last commit' })).toHaveAttribute('title', /.+/);
  await expect(page.getByRole('button', { name: 'Discard…' })).toHaveAttribute('title', /.+/);
}

/** The diff header: one line, every part inside it, the layout toggle one line high. */
async function expectDiffHeaderFits(diff: Locator, label: string): Promise<void> {
  const header = diff.locator('.diff-header');
  const frame = await box(header);
  expect(frame.height, `${label}: the diff header is one line`).toBeLessThanOrEqual(44);
  // The layout toggle, in the header or (narrowest) in the "More diff options" menu: one line high either way.
  const toggle = header.getByRole('radiogroup', { name: 'Diff layout' });
  const more = header.getByRole('button', { name: 'More diff options' });
  const hidden = !(await toggle.isVisible());
  if (hidden) await more.click();
  expect((await box(toggle)).height, `${label}: the toggle is one line`).toBeLessThanOrEqual(32);
  if (hidden) {
    expect(inside(await box(header.locator('.diff-header-menu')), await box(diff)), `${label}: the menu inside the diff`).toBe(true);
    await header.page().keyboard.press('Escape');
    await expect(toggle).toBeHidden();
  }
  const parts = header.locator(':scope > *:visible');
  for (const part of await parts.all()) {
    const each = await box(part);
    expect(inside(each, frame), `${label}: ${await part.getAttribute('class')} inside the diff header`).toBe(true);
  }
  // The file's name stays readable; only its folder gives way.
  const name = await box(header.locator('.diff-path-name'));
  // Measured to the fraction of a pixel: a name a third of a pixel too wide already ends in "…".
  const shown = await header.locator('.diff-path-name').evaluate((el) => {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    return range.getBoundingClientRect().width <= el.getBoundingClientRect().width + 0.01;
  });
  expect(name.width, `${label}: the file name has room`).toBeGreaterThan(60);
  expect(shown, `${label}: the file name is not cut`).toBe(true);
}

/** An inline note's card starts where the code of its line starts. */
async function expectNoteUnderItsLine(diff: Locator, note: Locator, line: number, label: string): Promise<void> {
  const row = diff.locator('.diff-row', { has: diff.page().getByRole('button', { name: `Add a note on line ${line} (sandbox)` }) });
  const code = await box(row.locator('.diff-code').last());
  const card = await box(note);
  expect(Math.abs(card.x - code.x), `${label}: the card's left edge at its line's code (${card.x} vs ${code.x})`).toBeLessThanOrEqual(1);
}

/** Every note card in the panel shows its delete button whole. */
async function expectPanelCardsWhole(panel: Locator, label: string): Promise<void> {
  const cards = await panel.getByRole('article').all();
  expect(cards.length).toBeGreaterThan(0);
  for (const card of cards) {
    const frame = await box(card);
    const remove = await box(card.getByRole('button', { name: 'Delete note' }));
    expect(inside(remove, frame), `${label}: the delete button inside its card`).toBe(true);
    const scroller = await box(panel.locator('.notes-panel-scroll'));
    expect(inside(frame, scroller), `${label}: the card inside the panel`).toBe(true);
  }
}

async function shoot(page: Page, name: string): Promise<void> {
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  await page.mouse.move(1, page.viewportSize()!.height - 1);
  // No focus ring left by the measuring (the menu button) in the pictures.
  await page.locator('body').evaluate((body) => (body.ownerDocument.activeElement as { blur?: () => void } | null)?.blur?.());
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${scheme}.png`), animations: 'disabled', caret: 'hide' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('the review header, the diff header and the notes fit at 1280x800 and 1024x768, notes panel open or not', async ({ app, pageErrors }) => {
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, {
    original: { [FILE]: LINES, 'docs/guide.md': 'Guide\n' },
    changed: { [FILE]: LINES.replace('step5 = 5', 'step5 = 50'), 'docs/guide.md': 'Guide\n\nMore.\n' },
  });
  const review = await showReview(page, plan, FILE);
  const diff = review.diff(FILE);
  await expect(diff).toBeVisible({ timeout: 15_000 });
  await diff.getByRole('radio', { name: 'Unified' }).click();
  const notes = new NotesUi(page);
  const open = await notes.addLineNote(diff, FILE, 5, 'Fifty is the new limit: say why in a comment above.');
  // A resolved note too: its card carries the longest header (badge, Reopen).
  const other = await notes.addLineNote(diff, FILE, 8, 'Checked: this stays.');
  await other.hover();
  await other.getByRole('button', { name: /Resolve/ }).click();
  await expect(other).toContainText('Resolved');

  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    for (const panelOpen of [false, true]) {
      if (panelOpen) await notes.openPanel();
      const label = `${width}x${height}, notes panel ${panelOpen ? 'open' : 'closed'}`;
      await expectHeaderFits(page, label);
      await expectDiffHeaderFits(diff, label);
      await open.scrollIntoViewIfNeeded();
      await expectNoteUnderItsLine(diff, open, 5, label);
      if (panelOpen) await expectPanelCardsWhole(notes.panel(), label);
      await shoot(page, `review-layout-${panelOpen ? 'notes' : 'list'}-${width}x${height}`);
      if (panelOpen) await notes.toggle().click();
    }
  }
  expect(pageErrors).toEqual([]);
});
