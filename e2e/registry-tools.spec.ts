/**
 * The tools screen against the real core: importing the reference's mixed tool (its static slot
 * needs local/shared-config registered first), importing from a file, problems shown beside the
 * lines they concern, export and removal.
 */
import fs from 'node:fs/promises';
import { expect, test } from './fixtures.ts';
import { MIXED_TOOL } from './pages/registry-seed.ts';
import { ToolsPage } from './pages/tools-page.ts';
import { bindery, Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

test("imports the reference's mixed tool once local/shared-config is registered", async ({ app }) => {
  await bindery(app.dataDir, 'resources', 'add', 'local/shared-config', '--type', 'fs-directory', '--location', await workspace.directory('shared-config'));
  const tools = new ToolsPage(app.page);
  await tools.open('Tools');
  await expect(app.page.getByText('No tools yet')).toBeVisible();

  const dialog = await tools.paste(MIXED_TOOL, 'mixed.yaml');
  await expect(dialog.getByTestId('import-summary')).toHaveText('Ready: mixed (3 slots).');
  await tools.confirmImport(dialog);
  await tools.expectToast('Imported mixed (3 slots).');

  await tools.select('mixed');
  expect(await tools.slotRows()).toEqual([
    ['repo', 'git-checkout', 'read / write', 'contextual', '—', 'yes'],
    ['config', 'fs-directory', 'read only', 'static', 'local/shared-config', 'yes'],
    ['output', 'fs-directory', 'write only', 'parameter', '—', 'yes'],
  ]);
  // The file view shows what export writes, with the reference's keys.
  await expect(app.page.getByRole('region', { name: 'mixed as YAML' })).toContainText('static_resource: local/shared-config');
});

test('shows each problem beside the line it concerns', async ({ app }) => {
  const tools = new ToolsPage(app.page);
  await tools.open('Tools');
  // Without local/shared-config, the static slot cannot be registered: line 10 says so.
  const dialog = await tools.paste(MIXED_TOOL, 'mixed.yaml');
  await expect(dialog.getByTestId('import-summary')).toHaveText('1 problem to fix before importing.');
  const line = dialog.locator('.yaml-line[data-line="10"]');
  await expect(line).toHaveClass(/has-issue/);
  await expect(line).toContainText('static_resource: local/shared-config');
  await expect(line.getByRole('alert')).toContainText('Static resource "local/shared-config" is not registered');

  // A syntax-level problem and an unknown field point at their own lines.
  await dialog.getByRole('textbox', { name: 'Tool definition (YAML or JSON)' }).fill('name: broken\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    colour: blue\n');
  await expect(dialog.locator('.yaml-line[data-line="5"]').getByRole('alert')).toContainText('Unknown field "colour"');
  // Import is refused with the same located problems.
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.locator('.yaml-line[data-line="5"]').getByRole('alert')).toContainText('Unknown field "colour"');
  await expect(dialog).toBeVisible();
});

test('imports from a file, exports it and removes it after confirming', async ({ app }) => {
  const file = await workspace.file('lint-fix.yaml', 'description: Runs the linter and applies fixes\nrun: npm run lint -- --fix\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n');
  const tools = new ToolsPage(app.page);
  await tools.open('Tools');
  const dialog = await tools.chooseFile(file);
  await expect(dialog.getByRole('textbox', { name: 'File name' })).toHaveValue('lint-fix.yaml');
  await tools.confirmImport(dialog);

  const detail = await tools.select('lint-fix');
  await expect(detail).toContainText('npm run lint -- --fix');
  const download = app.page.waitForEvent('download');
  await detail.getByRole('button', { name: 'Download' }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('lint-fix.yaml');
  const text = await fs.readFile(await saved.path(), 'utf8');
  expect(text).toContain('name: lint-fix');
  expect(text).toContain('resource_type: git-checkout');

  await detail.getByRole('button', { name: 'Remove' }).click();
  const confirm = tools.dialog('Remove tool lint-fix?');
  await confirm.getByRole('button', { name: 'Remove tool' }).click();
  await expect(app.page.getByText('No tools yet')).toBeVisible();
  expect(await bindery(app.dataDir, 'tools', 'list')).toEqual([]);
});

test('a tool file dropped on the window opens the import with its text', async ({ app }) => {
  const tools = new ToolsPage(app.page);
  await tools.open('Resources');
  // Runs in the page; the e2e code is compiled without DOM types, hence the narrow shape.
  const transfer = await app.page.evaluateHandle(() => {
    const page = globalThis as unknown as { DataTransfer: new () => { items: { add(file: File): void } } };
    const data = new page.DataTransfer();
    data.items.add(new File(['resource_slots:\n  - name: repo\n    resource_type: git-checkout\n'], 'dropped.yaml', { type: 'text/yaml' }));
    return data;
  });
  await app.page.dispatchEvent('body', 'dragenter', { dataTransfer: transfer });
  await app.page.dispatchEvent('body', 'drop', { dataTransfer: transfer });
  const dialog = tools.dialog('Import tools');
  await expect(dialog.getByRole('textbox', { name: 'File name' })).toHaveValue('dropped.yaml');
  await expect(dialog.getByTestId('import-summary')).toHaveText('Ready: dropped (1 slot).');
  await tools.confirmImport(dialog);
  await expect(app.page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();
  await tools.select('dropped');
});
