/**
 * The projects screen against the real core: create a project, link a git checkout with an
 * alias and a directory without one, edit aliases inline, unlink with confirmation, and the
 * duplicate-alias refusal shown at the alias.
 */
import { expect, test } from './fixtures.ts';
import { ProjectsPage } from './pages/projects-page.ts';
import { bindery, Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

async function registerTwo(dataDir: string): Promise<void> {
  await bindery(dataDir, 'resources', 'add', 'local/billing-api', '--type', 'git-checkout', '--location', await workspace.gitRepo('billing-api'));
  await bindery(dataDir, 'resources', 'add', 'local/shared-config', '--type', 'fs-directory', '--location', await workspace.directory('shared-config'));
}

test('links resources with an alias, edits the alias inline and unlinks', async ({ app }) => {
  await registerTwo(app.dataDir);
  const projects = new ProjectsPage(app.page);
  await projects.open('Projects');
  await expect(app.page.getByText('No projects yet')).toBeVisible();

  await projects.create('billing', 'Invoices and payments');
  await projects.select('billing');
  await expect(projects.detail().getByText('No linked resources')).toBeVisible();

  const dialog = await projects.linkResource('local/billing-api', 'repo');
  await expect(dialog).toBeHidden();
  await projects.expectToast('Linked local/billing-api to billing.');
  await expect(projects.link('local/billing-api')).toContainText('repo');
  await projects.linkResource('local/shared-config');
  await expect(projects.link('local/shared-config')).toContainText('add alias');

  await projects.setAlias('local/shared-config', 'config');
  await expect(projects.link('local/shared-config').getByRole('button', { name: /Alias of local\/shared-config: config/ })).toBeVisible();
  // The CLI sees what the app wrote.
  const shown = (await bindery(app.dataDir, 'projects', 'show', 'billing')) as { links: Array<{ alias: string | null; resource: { name: string } }> };
  expect(shown.links.map((l) => [l.resource.name, l.alias]).sort()).toEqual([
    ['local/billing-api', 'repo'],
    ['local/shared-config', 'config'],
  ]);

  await projects.unlink('local/shared-config');
  await expect(projects.link('local/shared-config')).toHaveCount(0);
  await expect(app.page.getByRole('listbox', { name: 'Projects' })).toContainText('1 linked resource');
});

test('refuses an alias already used in the project, beside the alias', async ({ app }) => {
  await registerTwo(app.dataDir);
  await bindery(app.dataDir, 'projects', 'add', 'billing');
  await bindery(app.dataDir, 'projects', 'link', 'billing', 'local/billing-api', '--alias', 'repo');
  await bindery(app.dataDir, 'projects', 'link', 'billing', 'local/shared-config');
  const projects = new ProjectsPage(app.page);
  await projects.open('Projects');
  await projects.select('billing');

  await projects.setAlias('local/shared-config', 'repo');
  const input = projects.link('local/shared-config').getByRole('textbox', { name: 'Alias of local/shared-config' });
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(projects.link('local/shared-config').getByRole('alert')).toContainText('Alias "repo" is already used in project "billing" by local/billing-api');
  await input.press('Escape');
  await expect(projects.link('local/shared-config')).toContainText('add alias');

  // An alias that is not an identifier is refused by the link dialog at its field too.
  await bindery(app.dataDir, 'projects', 'unlink', 'billing', 'local/shared-config');
  await expect(projects.link('local/shared-config')).toHaveCount(0);
  const dialog = await projects.linkResource('local/shared-config', '9 lives');
  await expect(dialog.getByRole('textbox', { name: 'Alias' })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('alert')).toContainText('The alias "9 lives" may hold only letters');
});

test('deleting a project confirms and keeps its resources', async ({ app }) => {
  await registerTwo(app.dataDir);
  await bindery(app.dataDir, 'projects', 'add', 'scratch');
  await bindery(app.dataDir, 'projects', 'link', 'scratch', 'local/billing-api');
  const projects = new ProjectsPage(app.page);
  await projects.open('Projects');
  await projects.detail().getByRole('button', { name: 'Delete' }).click();
  const dialog = projects.dialog('Delete project scratch?');
  await expect(dialog).toContainText('local/billing-api');
  await dialog.getByRole('button', { name: 'Delete project' }).click();
  await expect(app.page.getByText('No projects yet')).toBeVisible();
  await projects.open('Resources');
  await expect(app.page.getByTestId('resource-count')).toHaveText('2 resources');
});
