/**
 * A screenshot of each registry screen at 1280x800, light and dark, with realistic data (24
 * resources, projects with aliases, the reference's tools), plus the empty states and the main
 * dialogs, into e2e/artifacts/screenshots/ for review.
 */
import type { Page } from '@playwright/test';
import { expect, saveScreenshot, test } from './fixtures.ts';
import { AppShell, type Screen } from './pages/app-shell.ts';
import { ProjectsPage } from './pages/projects-page.ts';
import { seedRegistry, webApi } from './pages/registry-seed.ts';
import { ResourcesPage } from './pages/resources-page.ts';
import { ToolsPage } from './pages/tools-page.ts';
import { Workspace } from './pages/workspace.ts';

const SCHEMES = ['light', 'dark'] as const;
const SHOTS: Array<[Screen, string]> = [
  ['Resources', 'resources'],
  ['Projects', 'projects'],
  ['Tools', 'tools'],
  ['Resource types', 'types'],
];

test.describe.configure({ timeout: 180_000 });

test('screenshots of every registry screen, empty and with realistic data, light and dark', async ({ app }) => {
  test.skip(app.server === null, 'seeding goes through the web host API; the Electron project has no server');
  const { page } = app;
  const shell = new AppShell(page);
  const workspace = await Workspace.create();
  try {
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [screen, name] of SHOTS.slice(0, 3)) {
        await shell.open(screen);
        await expect(page.getByText(/^No (resources|projects|tools) yet$/)).toBeVisible();
        await shot(page, `empty-${name}-${scheme}`);
      }
    }

    await seedRegistry(webApi(app.server!.origin, app.server!.token), workspace);
    await page.reload();
    const resources = new ResourcesPage(page);
    await resources.open('Resources');
    await expect(page.getByTestId('resource-count')).toHaveText('24 resources');

    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [screen, name] of SHOTS) {
        await shell.open(screen);
        if (screen === 'Resources') await expect(resources.table().getByText('checking…')).toHaveCount(0, { timeout: 30_000 });
        if (screen === 'Projects') await new ProjectsPage(page).select('billing');
        if (screen === 'Tools') await new ToolsPage(page).select('mixed');
        await shot(page, `${name}-${scheme}`);
      }
      // The plain folders, one of them gone from disk since it was registered.
      await resources.open('Resources');
      await resources.filter('shared');
      await expect(resources.row('local/scratch').locator('[data-status="missing"]')).toBeVisible();
      await shot(page, `resources-filtered-${scheme}`);
      await resources.filter('');
      await dialogShots(page, scheme, workspace);
    }
  } finally {
    await workspace.dispose();
  }
});

async function dialogShots(page: Page, scheme: string, workspace: Workspace): Promise<void> {
  const resources = new ResourcesPage(page);
  await resources.open('Resources');
  const register = await resources.startRegister(await workspace.gitRepo(`new/checkout-${scheme}`, { branch: 'main' }));
  await shot(page, `dialog-register-${scheme}`);
  await register.getByRole('button', { name: 'Cancel' }).click();

  const tools = new ToolsPage(page);
  await tools.open('Tools');
  const dialog = await tools.paste('name: report\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n  - name: config\n    resource_type: fs-directory\n    binding: static\n    static_resource: local/not-registered\n', 'report.yaml');
  await expect(dialog.getByTestId('import-summary')).toContainText('problem');
  await shot(page, `dialog-import-errors-${scheme}`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
}

async function shot(page: Page, name: string): Promise<void> {
  // Toasts from earlier steps would cover the screen: dismiss them first.
  for (const dismiss of await page.getByRole('button', { name: 'Dismiss' }).all()) await dismiss.click();
  await saveScreenshot(page, `screenshots/${name}`);
}
