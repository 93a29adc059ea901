/**
 * Review notes back to the tool (issue 23), through `bindery serve` in Chromium on a real
 * repository: a note on a context line of a diff, "Request changes" runs the tool's command again,
 * which rewrites those lines and copies the notes file it was handed (BINDERY_REVIEW_NOTES) into
 * the sandbox; the note then shows as outdated with the text it was written on, and the copied file
 * holds it. Screenshots at 1280x800, light and dark, of an inline note and of the notes panel with
 * the outdated note go to e2e/artifacts/screenshots/.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { NotesUi } from './pages/notes-page.ts';
import { seedPlan, showReview } from './pages/review-seed.ts';
import { Workspace } from './pages/workspace.ts';

// Seeding runs the CLI five times, and the run starts a process: slow on a busy machine.
test.setTimeout(240_000);

const SCREENSHOTS = path.join(ARTIFACTS_DIR, 'screenshots');
const FILE = 'src/pricing.ts';
const ORIGINAL = [
  "import { round } from './money';",
  '',
  'export interface Line {',
  '  price: number;',
  '  quantity: number;',
  '}',
  '',
  'export function subtotal(lines: Line[]): number {',
  '  let total = 0;',
  '  for (const line of lines) total += line.price * line.quantity;',
  '  return round(total);',
  '}',
  '',
  'export function withTax(amount: number, rate: number): number {',
  '  return round(amount * (1 + rate));',
  '}',
  '',
].join('\n');
// The tool's first pass: a discount parameter on subtotal (lines 8 and 11 change; 9 and 10 stay).
const FIRST_PASS = ORIGINAL.replace(
  'export function subtotal(lines: Line[]): number {',
  'export function subtotal(lines: Line[], discount = 0): number {',
).replace('  return round(total);', '  return round(total * (1 - discount));');
const NOTED_LINE = 10;
const NOTED_TEXT = '  for (const line of lines) total += line.price * line.quantity;';
const NOTE = 'Use reduce here, and skip lines with a zero quantity.';

// The tool's run: rewrites the noted loop and keeps the notes file it was handed, for the test.
const AGENT = `
const fs = require('node:fs');
const path = require('node:path');
const root = process.env.BINDERY_SLOT_REPO;
fs.copyFileSync(process.env.BINDERY_REVIEW_NOTES, path.join(root, 'received-notes.json'));
const file = path.join(root, ${JSON.stringify(FILE)});
const text = fs.readFileSync(file, 'utf8');
fs.writeFileSync(file, text.replace(${JSON.stringify(NOTED_TEXT)}, '  total = lines.filter((l) => l.quantity > 0).reduce((sum, l) => sum + l.price * l.quantity, 0);'));
console.log('applied the review notes');
`;

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

async function shot(page: Page, name: string): Promise<void> {
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  const dismiss = page.locator('.toasts').getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  // No hover state in the pictures.
  await page.mouse.move(1, 799);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-1280x800${scheme === 'dark' ? '-dark' : ''}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a note on a context line goes to the tool, and shows outdated once the tool rewrote the line', async ({ app, pageErrors }) => {
  const { page } = app;
  const script = await workspace.file('agent/apply-notes.cjs', AGENT);
  const plan = await seedPlan(app.dataDir, workspace, {
    repo: 'shop',
    tool: 'pricing-agent',
    run: `node '${script}'`,
    original: { [FILE]: ORIGINAL, 'src/money.ts': 'export const round = (n: number) => Math.round(n * 100) / 100;\n' },
    changed: { [FILE]: FIRST_PASS },
  });
  const review = await showReview(page, plan, FILE);
  const diff = review.diff(FILE);
  await expect(diff).toBeVisible({ timeout: 15_000 });
  const notes = new NotesUi(page);

  // Nothing to send yet: Request changes says why.
  const panel = await notes.openPanel();
  await expect(panel.getByRole('button', { name: /^Request changes/ })).toBeDisabled();
  await expect(panel).toContainText('No open notes');
  await notes.toggle().click();
  await expect(panel).toBeHidden();

  // A note on line 10, unchanged between the original and the sandbox (a context line).
  const inline = await notes.addLineNote(diff, FILE, NOTED_LINE, NOTE);
  await expect(inline).not.toContainText('Outdated');
  await expect(notes.toggle()).toContainText('1');
  await shot(page, 'review-note-inline');

  // The panel lists it under its file; Request changes runs the tool with it.
  await notes.openPanel();
  const listed = notes.panelNote(`${FILE}, line ${NOTED_LINE} (sandbox)`);
  await expect(listed).toContainText(NOTE);
  await expect(panel.getByRole('region', { name: `Notes on ${FILE}` })).toBeVisible();
  const run = await notes.requestChanges();
  await expect(run.getByRole('status')).toContainText('Finished');
  await expect(run).toContainText('applied the review notes');

  // The tool rewrote line 10: the note is outdated and quotes the text it was written on.
  await expect(listed.getByText('Outdated')).toBeVisible({ timeout: 20_000 });
  await expect(listed.locator('.note-quote code')).toHaveText(NOTED_TEXT);
  await expect(inline.getByText('Outdated')).toBeVisible();
  await expect(diff).toContainText('reduce((sum, l)');

  // The tool received the note in the file named by BINDERY_REVIEW_NOTES.
  const received = JSON.parse(await fs.readFile(path.join(plan.sandboxPath, 'received-notes.json'), 'utf8')) as {
    plan_id: string;
    notes: Array<{ path: string; side: string; from_line: number; to_line: number; anchor_text: string; body: string }>;
  };
  expect(received.plan_id).toBe(plan.planId);
  expect(received.notes).toHaveLength(1);
  expect(received.notes[0]).toMatchObject({ path: FILE, side: 'new', from_line: NOTED_LINE, to_line: NOTED_LINE, anchor_text: NOTED_TEXT, body: NOTE });

  // Back to the diff from the panel: the note's place is a link to its lines.
  await diff.getByRole('radio', { name: 'Unified' }).click();
  await listed.getByRole('button', { name: `${FILE}, line ${NOTED_LINE} (sandbox)` }).click();
  await expect(inline).toBeInViewport();
  await shot(page, 'review-notes-panel-outdated');

  // Resolve: no open notes left, so Request changes waits again.
  await listed.getByRole('button', { name: 'Resolve' }).click();
  await expect(listed.getByText('Resolved')).toBeVisible();
  await expect(panel.getByRole('button', { name: /^Request changes/ })).toBeDisabled();
  expect(pageErrors).toEqual([]);
});

// A longer file: changes near both ends, so the lines between stay collapsed.
const LONG = Array.from({ length: 40 }, (_, i) => `export const value${i + 1} = ${i + 1};`).join('\n') + '\n';
const LONG_CHANGED = LONG.replace('value3 = 3;', 'value3 = 300;').replace('value38 = 38;', 'value38 = 3800;');

test('notes by keyboard, under their own half side by side, and a jump opens collapsed lines', async ({ app, pageErrors }) => {
  const { page } = app;
  const plan = await seedPlan(app.dataDir, workspace, { repo: 'shop', original: { [FILE]: LONG }, changed: { [FILE]: LONG_CHANGED } });
  const review = await showReview(page, plan, FILE);
  const diff = review.diff(FILE);
  await expect(diff).toBeVisible({ timeout: 15_000 });
  await diff.getByRole('radio', { name: 'Split' }).click();
  const notes = new NotesUi(page);
  const scroller = diff.locator('.diff-scroll');

  // Keyboard only: `c` opens the composer on the focused change; Ctrl+Enter saves; focus comes back.
  await scroller.focus();
  await page.keyboard.press('n');
  await page.keyboard.press('c');
  const composer = diff.getByRole('textbox', { name: 'Note on Line 3 (sandbox)' });
  await expect(composer).toBeFocused();
  await page.keyboard.type('Keep three. c and n are text here.');
  await expect(composer).toHaveValue('Keep three. c and n are text here.');
  await page.keyboard.press('Control+Enter');
  await expect(composer).toBeHidden();
  await expect(scroller).toBeFocused();
  const keyed = notes.inlineNote(diff, `${FILE}, line 3 (sandbox)`);
  await expect(keyed).toContainText('Keep three.');

  // Side by side, a note sits under the half it is on: the original's on the left, the sandbox's on the right.
  const old = await notes.addLineNote(diff, FILE, 38, 'Why 3800?', 'original');
  const half = (await scroller.boundingBox())!;
  const middle = half.x + half.width / 2;
  const oldBox = (await old.boundingBox())!;
  const newBox = (await keyed.boundingBox())!;
  expect(oldBox.x).toBeLessThan(middle);
  expect(newBox.x).toBeGreaterThan(middle);
  expect(oldBox.x + oldBox.width).toBeLessThan(newBox.x);

  // A note on a line that later sits in a collapsed run: its place in the panel opens the run.
  await scroller.focus();
  await page.keyboard.press('e');
  const hidden = await notes.addLineNote(diff, FILE, 20, 'Collapsed, yet found.');
  await scroller.focus();
  await page.keyboard.press('e');
  await expect(hidden).toHaveCount(0);
  await notes.openPanel();
  await notes.panelNote(`${FILE}, line 20 (sandbox)`).getByRole('button', { name: `${FILE}, line 20 (sandbox)` }).click();
  await expect(hidden).toBeInViewport();
  expect(pageErrors).toEqual([]);
});
