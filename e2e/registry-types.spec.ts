/**
 * The resource types screen against the real core: built-ins marked and protected, adding a
 * sub-type with a custom handler (the trust warning shows), cycles not offered, and refusals
 * shown where they happen.
 */
import { expect, test } from './fixtures.ts';
import { TypesPage } from './pages/types-page.ts';
import { bindery, Workspace } from './pages/workspace.ts';

test('lists the built-ins, adds a sub-type with a custom handler, removes it after confirming', async ({ app }) => {
  const types = new TypesPage(app.page);
  await types.open('Resource types');
  await expect(types.row('git-checkout')).toContainText('built-in');
  await expect(types.row('fs-directory')).toContainText('git-checkout');
  await expect(types.row('git-checkout').getByRole('button', { name: 'Remove git-checkout' })).toBeDisabled();

  const dialog = await types.fillNew('docs-site', { parents: ['fs-directory'], handler: 'docs-handler.js:DocsHandler', strategy: 'copy_on_write' });
  await expect(dialog.getByRole('note')).toContainText('A custom handler is trusted code');
  await dialog.getByRole('button', { name: 'Add type' }).click();
  await expect(dialog).toBeHidden();
  const row = types.row('docs-site');
  await expect(row).toContainText('fs-directory');
  await expect(row).toContainText('docs-handler.js:DocsHandler');
  await expect(row).toContainText('Copy on write');

  await row.getByRole('button', { name: 'Remove docs-site' }).click();
  const confirm = types.dialog('Remove type docs-site?');
  await confirm.getByRole('button', { name: 'Remove type' }).click();
  await expect(types.row('docs-site')).toHaveCount(0);
});

test('refuses a bad name at the field and offers no parent that would make a cycle', async ({ app }) => {
  const types = new TypesPage(app.page);
  await types.open('Resource types');
  const dialog = await types.fillNew('Docs Site');
  await dialog.getByRole('button', { name: 'Add type' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('alert')).toContainText('is not kebab-case');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // fs-directory already descends from git-checkout, so it cannot become git-checkout's parent.
  await types.row('git-checkout').getByRole('button', { name: 'Edit git-checkout' }).click();
  const edit = types.dialog('Edit type git-checkout');
  await expect(edit.getByRole('checkbox', { name: /^fs-directory/ })).toBeDisabled();
  await expect(edit).toContainText('already a sub-type of git-checkout');
  await expect(edit.getByRole('textbox', { name: 'Handler' })).toBeDisabled();
});

test('a type still in use cannot be removed, and the confirmation says why', async ({ app }) => {
  const workspace = await Workspace.create();
  try {
    await bindery(app.dataDir, 'types', 'add', 'docs-site', '--parent-types', 'fs-directory');
    await bindery(app.dataDir, 'resources', 'add', 'local/handbook', '--type', 'docs-site', '--location', await workspace.directory('handbook'));
    const types = new TypesPage(app.page);
    await types.open('Resource types');
    await types.row('docs-site').getByRole('button', { name: 'Remove docs-site' }).click();
    const confirm = types.dialog('Remove type docs-site?');
    await confirm.getByRole('button', { name: 'Remove type' }).click();
    await expect(confirm.getByRole('alert')).toContainText('still used by resources local/handbook');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(types.row('docs-site')).toBeVisible();
  } finally {
    await workspace.dispose();
  }
});
