/**
 * Registering a folder that is already registered (issue 22): the register dialog says so before
 * saving, naming the other resource, and registering anyway still works.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { ResourcesPage } from './pages/resources-page.ts';
import { bindery, Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

test('warns that the folder is registered already, naming the other resource', async ({ app }) => {
  const repo = await workspace.gitRepo('billing-api');
  const other = await workspace.directory('notes');
  await bindery(app.dataDir, 'resources', 'add', 'local/billing-api', '--type', 'git-checkout', '--location', repo);
  const resources = new ResourcesPage(app.page);
  await expect(app.page.getByTestId('resource-count')).toHaveText('1 resource');

  const elsewhere = await resources.startRegister(other);
  await expect(elsewhere.getByTestId('same-folder-warning')).toHaveCount(0);
  await elsewhere.getByRole('textbox', { name: 'Folder' }).fill(repo);
  const warning = elsewhere.getByTestId('same-folder-warning');
  await expect(warning).toContainText('This folder is already registered as "local/billing-api"');
  await fs.mkdir(path.join(ARTIFACTS_DIR, 'register'), { recursive: true });
  await app.page.screenshot({ path: path.join(ARTIFACTS_DIR, 'register', 'same-folder-light-1280x800.png') });

  await elsewhere.getByRole('textbox', { name: 'Name' }).fill('local/billing-files');
  await elsewhere.getByRole('combobox', { name: 'Type' }).selectOption('fs-directory');
  await elsewhere.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(elsewhere).toBeHidden();
  await expect(app.page.getByTestId('resource-count')).toHaveText('2 resources');
});
