/** The app loads in its host, shows the shell, talks to the real core, and sees CLI changes live. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, saveScreenshot, test } from './fixtures.ts';
import { REPO_ROOT } from './serve-process.ts';

const run = promisify(execFile);

test('the app loads and shows the shell with its navigation', async ({ app, pageErrors }) => {
  const { page } = app;
  await expect(page).toHaveTitle('Bindery');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('data-dir')).toHaveText(app.dataDir);
  await saveScreenshot(page, `smoke-shell-${app.kind}`);
  expect(pageErrors).toEqual([]);
});

test('a change made by the CLI in another process appears without a restart', async ({ app }) => {
  const projects = app.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Projects/ });
  await expect(projects).toContainText('0');
  await run(process.execPath, [path.join(REPO_ROOT, 'bin', 'bindery.js'), '--data-dir', app.dataDir, 'projects', 'add', 'from-cli'], { cwd: REPO_ROOT });
  await expect(projects).toContainText('1');
});

test.describe('web host', () => {
  test('hides the token from the address bar and refuses API calls without it', async ({ app }) => {
    test.skip(app.kind !== 'web', 'the token belongs to the web host');
    const { page } = app;
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    const statuses = await page.evaluate(async () => {
      const call = (headers: Record<string, string>) =>
        fetch('./api/listTypes', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: '{}' }).then((r) => r.status);
      return { without: await call({}), wrong: await call({ 'X-Bindery-Token': 'guess' }) };
    });
    expect(statuses).toEqual({ without: 401, wrong: 401 });
    // A reload keeps working: the token survives in session storage.
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByTestId('data-dir')).toHaveText(app.dataDir);
  });
});
