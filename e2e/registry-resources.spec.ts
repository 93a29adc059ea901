/**
 * The resources screen against the real core: registering a git checkout and a plain directory
 * (type suggested, name proposed, live status), filtering, and refusals shown at their field.
 */
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import { ResourcesPage } from './pages/resources-page.ts';
import { bindery, Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

test('registers a git checkout and a directory with the suggested type and proposed name', async ({ app }) => {
  const repo = await workspace.gitRepo('billing-api', { branch: 'develop', dirty: 2 });
  const dir = await workspace.directory('shared-config');
  const resources = new ResourcesPage(app.page);
  await expect(app.page.getByText('No resources yet')).toBeVisible();

  const dialog = await resources.startRegister(repo);
  await expect(dialog.getByTestId('folder-verdict')).toContainText('Git work tree root');
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('local/billing-api');
  await expect(dialog.getByRole('combobox', { name: 'Type' })).toHaveValue('git-checkout');
  await dialog.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(dialog).toBeHidden();
  await resources.expectToast('Registered local/billing-api as git-checkout.');

  await resources.register(dir);
  const gitRow = resources.row('local/billing-api');
  const dirRow = resources.row('local/shared-config');
  await expect(gitRow).toContainText('git-checkout');
  await expect(gitRow).toContainText(repo);
  await expect(dirRow).toContainText('fs-directory');
  // Live status, fetched lazily for the rows on screen.
  await expect(gitRow.locator('[data-status="git"]')).toContainText('develop');
  await expect(gitRow.locator('[data-status="git"]')).toContainText('2 changed');
  await expect(dirRow.locator('[data-status="folder"]')).toBeVisible();
  await expect(app.page.getByTestId('resource-count')).toHaveText('2 resources');
});

test('filters by text and by type', async ({ app }) => {
  await bindery(app.dataDir, 'resources', 'add', 'local/api', '--type', 'git-checkout', '--location', await workspace.gitRepo('api'));
  await bindery(app.dataDir, 'resources', 'add', 'local/web', '--type', 'git-checkout', '--location', await workspace.gitRepo('web'));
  await bindery(app.dataDir, 'resources', 'add', 'team/docs', '--type', 'fs-directory', '--location', await workspace.directory('docs'));
  const resources = new ResourcesPage(app.page);
  // Registered by the CLI in another process: the screen catches up without a reload.
  await expect(app.page.getByTestId('resource-count')).toHaveText('3 resources');

  // "/" jumps to the filter, as in most developer tools.
  await app.page.keyboard.press('/');
  await expect(app.page.getByRole('searchbox', { name: 'Filter resources' })).toBeFocused();
  await app.page.keyboard.type('team');
  await expect(app.page.getByTestId('resource-count')).toHaveText('1 of 3');
  await expect(resources.row('team/docs')).toBeVisible();
  await resources.filter('');
  await resources.filterType('git-checkout');
  await expect(app.page.getByTestId('resource-count')).toHaveText('2 of 3');
  await resources.filter('nothing-like-this');
  await expect(app.page.getByText('No resources match')).toBeVisible();
  await app.page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(app.page.getByTestId('resource-count')).toHaveText('3 resources');
});

test('shows why a folder cannot be registered, at the field it concerns', async ({ app }) => {
  const repo = await workspace.gitRepo('mono');
  const inside = await workspace.directory('mono/packages/ui');
  const resources = new ResourcesPage(app.page);

  // A folder inside a work tree is not a git-checkout: the core says what to do instead.
  const dialog = await resources.startRegister(inside);
  await expect(dialog.getByTestId('folder-verdict')).toContainText('not at its root');
  await expect(dialog.getByRole('combobox', { name: 'Type' })).toHaveValue('fs-directory');
  await dialog.getByRole('combobox', { name: 'Type' }).selectOption('git-checkout');
  await dialog.getByRole('button', { name: 'Register', exact: true }).click();
  const folder = dialog.getByRole('textbox', { name: 'Folder' });
  await expect(folder).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('alert')).toContainText(`register ${repo} instead`);

  // A folder that does not exist.
  await folder.fill(path.join(workspace.root, 'missing'));
  await expect(dialog.getByTestId('folder-verdict')).toContainText('does not exist');
  await dialog.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('does not exist');

  // A name that is taken is reported at the name.
  await bindery(app.dataDir, 'resources', 'add', 'local/ui', '--type', 'fs-directory', '--location', await workspace.directory('elsewhere'));
  await folder.fill(inside);
  await dialog.getByRole('combobox', { name: 'Type' }).selectOption('fs-directory');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('local/ui');
  await dialog.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('alert')).toContainText('already exists');
});

test('removing a linked resource confirms, names its dependents and needs force', async ({ app }) => {
  const repo = await workspace.gitRepo('api');
  await bindery(app.dataDir, 'resources', 'add', 'local/api', '--type', 'git-checkout', '--location', repo);
  await bindery(app.dataDir, 'projects', 'add', 'billing');
  await bindery(app.dataDir, 'projects', 'link', 'billing', 'local/api');
  const resources = new ResourcesPage(app.page);
  await expect(resources.row('local/api')).toContainText('billing');

  const dialog = await resources.startRemove('local/api');
  await expect(dialog).toContainText('project billing links it');
  await dialog.getByRole('button', { name: 'Remove resource' }).click();
  await expect(dialog.getByRole('alert')).toContainText('is used by projects billing');
  await dialog.getByRole('checkbox', { name: /Remove anyway/ }).check();
  await dialog.getByRole('button', { name: 'Remove resource' }).click();
  await expect(dialog).toBeHidden();
  await resources.expectToast('Unlinked from billing');
  await expect(app.page.getByText('No resources yet')).toBeVisible();
});
