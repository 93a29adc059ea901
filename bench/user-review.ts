/**
 * The review at the user's level (issue 22), in Chromium through `bindery serve`: from a click on a
 * file row until its diff rows are painted, on one sandbox of a generated repository holding
 * 5,001 changes: a 10,000-line modified file, a 16-line added file, a 10,000-line added file,
 * "Show anyway" on a rewritten 25,000-line file, committing 17 files from the review, and the
 * network of 30 s idle on the review. Each click starts from a fresh page load (cold caches).
 * Usage: tsx bench/user-review.ts [--files 9000] [--review-changes 5001] [--runs 5] [--idle 30]
 *   [--timeout 180] [--dir DIR] [--no-build] [--cli-dir out/cli] [--keep]
 *   [--quick: 300 files, 60 changes, 1 run, 5 s idle]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright';
import { findChromium } from '../scripts/chromium.js';
import { prepareCli, provisionPlan, serve } from './fixtures/bindery-cli.ts';
import { clickToPaint, countTraffic, idleTraffic, lastRequestMs, type NetworkCount } from './fixtures/page-timing.ts';
import { flag, formatBytes, formatMs, machine, median, numberFlag, sized, table, writeResults } from './fixtures/report.ts';
import { generateRepo, SPECIAL } from './fixtures/real-tree.ts';
import { editCommitSet, editSandbox } from './fixtures/sandbox-edits.ts';

const args = process.argv.slice(2);
const files = Math.round(numberFlag(args, '--files', sized(args, 9_000, 300)));
const changes = Math.round(numberFlag(args, '--review-changes', sized(args, 5_001, 60)));
const runs = Math.round(numberFlag(args, '--runs', sized(args, 5, 1)));
const idleMs = numberFlag(args, '--idle', sized(args, 30, 5)) * 1000;
const timeoutMs = numberFlag(args, '--timeout', sized(args, 180, 90)) * 1000;

/** One measured action: its samples (ms), and the part spent in the `fileDiff` request. */
interface Action {
  name: string;
  goalMs: number;
  samples: number[];
  fetchMs: number[];
}

const row = (file: string) => `.file-row-main[data-path="${file}"]`;
const view = (file: string) => `[aria-label="Changes in ${file}"]`;

/** Loads the review resting on the quiet file: a fresh page, so nothing of an earlier click is cached. */
async function openReview(page: Page, url: string, quiet: string): Promise<void> {
  await page.goto(url);
  await page.locator(`${view(quiet)} .diff-row`).first().waitFor({ timeout: timeoutMs });
}

/** Shows one row in the virtualized list the way a person finds it among thousands: the filter. */
async function findRow(page: Page, file: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Filter files' }).fill(file);
  await page.locator(row(file)).waitFor({ timeout: timeoutMs });
}

/** Click on a row until its rows are painted. */
async function clickFile(page: Page, file: string): Promise<{ ms: number; fetch: number }> {
  await findRow(page, file);
  const ms = await clickToPaint(page, { click: row(file), awaited: `${view(file)} .diff-row`, timeoutMs });
  return { ms, fetch: await lastRequestMs(page, '/api/fileDiff') };
}

/** Click on the 25,000-line file until its gate shows, then "Show anyway" until its rows are painted. */
async function showAnyway(page: Page): Promise<{ gate: number; rows: number }> {
  const file = SPECIAL.rewritten25k;
  await findRow(page, file);
  const gate = await clickToPaint(page, { click: row(file), awaited: '[aria-label="Large diff"] button', text: 'Show anyway', timeoutMs });
  const rows = await clickToPaint(page, { click: '[aria-label="Large diff"] button', awaited: `${view(file)} .diff-row`, timeoutMs });
  return { gate, rows };
}

/** Chooses the commit set (and nothing else) and times the dialog's Commit until the outcome says what it wrote. */
async function commitSet(page: Page, count: number): Promise<number> {
  const all = page.getByRole('checkbox', { name: 'Select all files for commit' });
  await page.getByRole('searchbox', { name: 'Filter files' }).fill('');
  await all.setChecked(false);
  await page.getByRole('searchbox', { name: 'Filter files' }).fill(SPECIAL.commitDir);
  await all.setChecked(true);
  await page.getByRole('button', { name: new RegExp(`^Commit selected \\(${count}\\b`) }).click();
  const submit = page.getByRole('dialog').getByRole('button', { name: `Commit ${count} files` });
  await submit.waitFor({ timeout: timeoutMs });
  await submit.evaluate((button) => button.setAttribute('data-bench-submit', ''));
  return clickToPaint(page, { click: '[data-bench-submit]', awaited: '[aria-label="Outcome"]', text: `wrote ${count} files`, timeoutMs });
}

const work = fs.realpathSync(fs.mkdtempSync(path.join(flag(args, '--dir', os.tmpdir()), 'bindery-user-review-')));
const browserPath = findChromium();
const cli = await prepareCli({ build: !args.includes('--no-build'), renderer: true, cliDir: args.includes('--cli-dir') ? flag(args, '--cli-dir', '') : undefined });
const started = Date.now();
const layout = generateRepo(path.join(work, 'app'), { files });
const plan = provisionPlan(cli, work, layout.root);
const edits = editSandbox(plan.sandbox, layout, { changes, review: true });
console.log(`${layout.files.length} files, ${edits.total} changes (M ${edits.modified.length}, A ${edits.added.length}, D ${edits.deleted.length}, R ${edits.renamed.length}); set up in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const served = await serve(cli, plan.dataDir);
const browser = await chromium.launch({
  ...(browserPath && browserPath.source !== 'playwright' ? { executablePath: browserPath.path } : {}),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const actions: Action[] = [
  { name: 'click a 10,000-line modified file until its rows are painted', goalMs: 300, samples: [], fetchMs: [] },
  { name: 'click a 16-line added file (the sandbox holds big files too)', goalMs: 150, samples: [], fetchMs: [] },
  { name: 'click a 10,000-line added file', goalMs: 300, samples: [], fetchMs: [] },
  { name: 'click the rewritten 25,000-line file until its gate shows', goalMs: 500, samples: [], fetchMs: [] },
  { name: '"Show anyway" on it until its rows are painted', goalMs: 500, samples: [], fetchMs: [] },
  { name: `commit ${layout.commitSet.length} files from the review`, goalMs: 1000, samples: [], fetchMs: [] },
];
let idle: NetworkCount | null = null;
// One click's traffic (the 10,000-line file, first round): what a click costs, and a check that the counter counts.
let click: NetworkCount | null = null;
const pageErrors: string[] = [];
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const quietUrl = `${served.url}#/plans/${plan.planId}/review/${plan.sandboxId}/${edits.quiet}`;
  const loadStarted = Date.now();
  await openReview(page, quietUrl, edits.quiet);
  console.log(`review of ${edits.total} changes opened in ${formatMs(Date.now() - loadStarted)}`);
  // Idle first, on the review as it opened: a person reading it for 30 s.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  idle = await idleTraffic(page, idleMs);
  console.log(`idle ${idleMs / 1000} s: ${idle.requests} requests, ${formatBytes(idle.bytes)}`);

  const clicks: Array<[Action, string]> = [
    [actions[0]!, SPECIAL.modified10k],
    [actions[1]!, SPECIAL.added16],
    [actions[2]!, SPECIAL.added10k],
  ];
  for (let round = 0; round < runs; round++) {
    for (const [action, file] of clicks) {
      await openReview(page, quietUrl, edits.quiet);
      let timing = { ms: Number.NaN, fetch: Number.NaN };
      const traffic = await countTraffic(page, async () => (timing = await clickFile(page, file)));
      if (round === 0 && action === actions[0]) click = traffic;
      const { ms, fetch } = timing;
      action.samples.push(ms);
      action.fetchMs.push(fetch);
    }
    await openReview(page, quietUrl, edits.quiet);
    const { gate, rows } = await showAnyway(page);
    actions[3]!.samples.push(gate);
    actions[4]!.samples.push(rows);
    // A fresh change to each file of the set, as a tool working on would make, then a fresh page.
    editCommitSet(plan.sandbox, layout, round + 1);
    await openReview(page, quietUrl, edits.quiet);
    actions[5]!.samples.push(await commitSet(page, layout.commitSet.length));
    console.log(`round ${round + 1}: ${actions.map((action) => formatMs(action.samples.at(-1) ?? null)).join(', ')}`);
  }
} catch (error) {
  // What the page showed when a wait ran out, to tell a slow review from a changed screen.
  const shot = path.join(path.dirname(writeResults('user-review.json', { error: String(error) })), 'user-review-failure.png');
  await browser.contexts()[0]?.pages()[0]?.screenshot({ path: shot }).catch(() => undefined);
  console.error(`Failed; the page as it was: ${shot}`);
  throw error;
} finally {
  await browser.close();
  await served.stop();
  if (!args.includes('--keep')) fs.rmSync(work, { recursive: true, force: true, maxRetries: 3 });
}

const info = machine();
const rows = actions.map((action) => {
  const ms = median(action.samples.filter((value) => !Number.isNaN(value)));
  const fetch = median(action.fetchMs.filter((value) => !Number.isNaN(value)));
  const failed = action.samples.some((value) => Number.isNaN(value));
  return [action.name, `${failed ? `> ${formatMs(timeoutMs)} in some runs; ` : ''}${formatMs(ms)}`, fetch === null ? '' : formatMs(fetch), action.samples.map((value) => formatMs(value)).join(', '), `< ${formatMs(action.goalMs)}`, !failed && ms !== null && ms < action.goalMs ? 'met' : 'missed'];
});
if (idle) {
  const polls = Object.entries(idle.byPath).map(([name, count]) => `${name} ${count}`).join(', ');
  rows.push([`idle ${idleMs / 1000} s on the review of ${edits.total.toLocaleString('en-US')} changes`, `${idle.requests} requests, ${formatBytes(idle.bytes)}`, '', polls || 'none', 'no transfer when nothing changed', idle.requests === 0 ? 'met' : 'missed']);
}
if (click) console.log(`\nOne click on the 10,000-line file (filter typed, row clicked, rows painted): ${click.requests} requests (${Object.entries(click.byPath).map(([name, count]) => `${name} ${count}`).join(', ')}), ${formatBytes(click.bytes)}`);
console.log(`\nThe review at the user's level${args.includes('--quick') ? ' (--quick: proves it runs, not figures to quote)' : ''}: Chromium through bindery serve, ${files.toLocaleString('en-US')} files, medians of ${runs} runs (node ${info.node}, ${info.cpus} CPUs, load ${info.load})\n`);
console.log(table(['action', 'median', 'of which fileDiff', 'runs', 'goal', 'verdict'], rows));
if (pageErrors.length) console.log(`\nPage errors: ${pageErrors.join(' | ')}`);
const file = writeResults('user-review.json', { machine: info, files: layout.files.length, changes: edits.total, runs, idleMs, actions, idle, click, pageErrors });
console.log(`\nJSON: ${path.relative(process.cwd(), file)}`);
