/**
 * Importing a tool whose name is taken, through `bindery serve`: the problem shows under the
 * file's `name:` line in the app's words (no CLI flag), with a "Replace" button that makes the
 * import update the registered tool.
 */
import { expect, test } from './fixtures.ts';
import { ToolsPage } from './pages/tools-page.ts';
import { bindery, Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

const TOOL = (access: string) =>
  `name: refactor\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: ${access}\n`;

test('a taken tool name shows under its line with Replace', async ({ app }) => {
  const page = app.page;
  await bindery(app.dataDir, 'tools', 'import', await workspace.file('tool.yaml', TOOL('read_only')));
  const tools = new ToolsPage(page);
  await tools.open('Tools');
  const dialog = await tools.paste(TOOL('read_write'));
  const line = dialog.locator('.yaml-line[data-line="1"]');
  await expect(line).toContainText('A tool named "refactor" is already registered.');
  await expect(dialog.getByRole('region', { name: 'Problems in the tool file' })).not.toContainText('--');
  await line.getByRole('button', { name: 'Replace' }).click();
  await expect(dialog.getByRole('checkbox', { name: /Replace tools that are already registered/ })).toBeChecked();
  await tools.confirmImport(dialog);
  const detail = await tools.select('refactor');
  await expect(detail).toContainText('read / write');
});
