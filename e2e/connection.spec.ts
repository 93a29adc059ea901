/**
 * A host that goes away and comes back (issue 22), in Chromium through `bindery serve --keep-token`:
 * killing serve shows the red "Disconnected, retrying" bar and disables Commit and Discard; a
 * restart on the same port with the kept token removes the bar by itself, and what changed
 * meanwhile is loaded. Screenshots of the bar, light and dark, at 1280x800 and 1024x768, go to
 * e2e/artifacts/connection/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { ReviewPage } from './pages/review-pages.ts';
import { REPO_ROOT } from './serve-process.ts';
import { bindery, Workspace } from './pages/workspace.ts';

const URL_PATTERN = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+)/;
const SHOTS = path.join(ARTIFACTS_DIR, 'connection');

/** `bindery serve --keep-token` as a process of its own, so the spec can kill and restart it. */
interface Host {
  child: ChildProcess;
  url: string;
  port: number;
  token: string;
  output: () => string;
}

/**
 * What serve runs from: a bundle of the current sources built once for this file into out/ (where
 * its native modules resolve). bin/bindery.js would run stale-bundle sources through tsx, seconds
 * more per start on a busy machine, and this spec starts serve twice per test.
 */
let serveEntry = path.join(REPO_ROOT, 'bin', 'bindery.js');
const BUNDLE_DIR = path.join(REPO_ROOT, 'out', `cli-e2e-connection-${process.pid}`);
test.beforeAll(async () => {
  const build = (await import(pathToFileURL(path.join(REPO_ROOT, 'scripts', 'build.js')).href)) as { buildCli(options: { outDir: string }): Promise<unknown> };
  await build.buildCli({ outDir: BUNDLE_DIR });
  serveEntry = path.join(BUNDLE_DIR, 'bindery.js');
});
test.afterAll(() => fs.rm(BUNDLE_DIR, { recursive: true, force: true }));

async function startHost(dataDir: string, port: number): Promise<Host> {
  const args = [serveEntry, 'serve', '--port', String(port), '--keep-token', '--data-dir', dataDir];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bindery serve printed no URL:\n${output}`)), 60_000);
    const onData = () => {
      const found = URL_PATTERN.exec(output);
      if (!found) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve(found);
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`bindery serve exited (${code}):\n${output}`)));
  });
  return { child, url: match[0], port: Number(match[1]), token: match[2]!, output: () => output };
}

function kill(host: Host, signal: NodeJS.Signals): Promise<void> {
  if (host.child.exitCode !== null || host.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    host.child.once('exit', () => resolve());
    host.child.kill(signal);
  });
}

/** One screenshot at the page's current size in `scheme` (a resize relayouts the review: the caller does it once per size). */
async function shoot(page: Page, name: string, width: number, height: number, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}-${width}x${height}.png`), animations: 'disabled', caret: 'hide' });
}

/**
 * A repository, its tool and a plan with README.md edited in its sandbox, and serve started over
 * them. Process starts are what is slow on a busy machine: once the first command has made the
 * database, serve starts beside the commands that need no plan, and independent ones run together.
 */
async function seed(dataDir: string): Promise<{ host: Host; repo: string; planId: string; sandbox: { id: string; path: string } }> {
  const repo = await workspace.gitRepo('site');
  const tool = await workspace.file('tool.yaml', 'name: tidy\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n');
  await bindery(dataDir, 'resources', 'add', 'local/site', '--type', 'git-checkout', '--location', repo);
  const starting = startHost(dataDir, 0).then((host) => (hosts.push(host), host));
  const registered = Promise.all([bindery(dataDir, 'projects', 'add', 'web'), bindery(dataDir, 'tools', 'import', tool)]).then(() =>
    bindery(dataDir, 'projects', 'link', 'web', 'local/site'),
  );
  const [host] = await Promise.all([starting, registered]);
  const plan = (await bindery(dataDir, 'plans', 'create', 'tidy', '--project', 'web')) as { plan_id: string; sandboxes: Array<{ id: string; path: string }> };
  const sandbox = plan.sandboxes[0]!;
  await fs.appendFile(path.join(sandbox.path, 'README.md'), 'A line from the agent.\n');
  return { host, repo, planId: plan.plan_id, sandbox };
}

let workspace: Workspace;
const hosts: Host[] = [];
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => kill(host, 'SIGKILL')));
  await workspace.dispose();
});

test('the bar shows while serve is down, actions are disabled, and the tab reconnects by itself', async ({ page, dataDir }, testInfo) => {
  test.skip(testInfo.project.name !== 'web', 'The web host only: Electron has no connection to lose.');
  const { host: first, planId, sandbox } = await seed(dataDir);
  await page.goto(`${first.url}#/plans/${planId}/review/${sandbox.id}`);
  const review = new ReviewPage(page);
  const commit = page.getByRole('button', { name: /^Commit (all|selected)/ });
  const discard = page.getByRole('button', { name: /^Discard/ });
  const bar = page.getByTestId('connection-bar');
  await expect(review.file('README.md')).toBeVisible();
  await expect(commit).toBeEnabled();
  await expect(bar).toHaveCount(0);
  await commit.focus();

  // The host dies without a word (a crash, a closed terminal).
  await kill(first, 'SIGKILL');
  await expect(bar).toBeVisible();
  await expect(bar).toContainText('Disconnected, retrying');
  await expect(page.getByRole('alert').filter({ hasText: 'Disconnected, retrying' })).toBeVisible();
  await expect(commit).toBeDisabled();
  await expect(discard).toBeDisabled();
  // Neither a click nor the keyboard reaches them.
  await commit.click({ force: true });
  await commit.press('Enter').catch(() => undefined);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await fs.mkdir(SHOTS, { recursive: true });
  for (const [width, height] of [
    [1280, 800],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) await shoot(page, 'disconnected-bar', width, height, scheme);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });

  // Work goes on in the sandbox while the host is away.
  await fs.writeFile(path.join(sandbox.path, 'added-while-away.txt'), 'new\n');

  const second = await startHost(dataDir, first.port);
  hosts.push(second);
  expect(second.token).toBe(first.token);
  await expect(bar).toHaveCount(0, { timeout: 20_000 });
  await expect(commit).toBeEnabled();
  // The control that had focus before the outage has it again.
  await expect(commit).toBeFocused();
  await expect(review.file('added-while-away.txt')).toBeVisible();
  await expect(page.locator('.shell')).not.toHaveAttribute('data-offline');
  // No failure from the outage is left on the screen.
  await expect(page.getByText(/not reachable/)).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, 'reconnected-light-1280x800.png') });
});

test('a dialog open when serve goes away still closes by Cancel and ×; its action waits for the host', async ({ page, dataDir }, testInfo) => {
  test.skip(testInfo.project.name !== 'web', 'The web host only: Electron has no connection to lose.');
  const { host, repo, planId } = await seed(dataDir);
  await page.goto(`${host.url}#/plans/${planId}`);
  const commitAll = page.getByRole('button', { name: /^Commit all \(1\)/ });
  await commitAll.click();
  const dialog = page.getByRole('dialog');
  const submit = dialog.locator('button[type="submit"]');
  await expect(submit).toBeEnabled();
  // The worst place for focus when the host goes: on the action that becomes disabled.
  await submit.focus();

  await kill(host, 'SIGKILL');
  await expect(page.getByTestId('connection-bar')).toBeVisible();
  // The action reaches the host: held. Closing reaches nothing: it works.
  await expect(submit).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeEnabled();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  // The keyboard still reaches the dialog: Tab lands inside it, and Esc closes it as Cancel does.
  await page.keyboard.press('Tab');
  await expect(dialog.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(commitAll).toBeDisabled();
  // Nothing was committed.
  expect(await fs.readFile(path.join(repo, 'README.md'), 'utf8')).not.toContain('A line from the agent.');
});
