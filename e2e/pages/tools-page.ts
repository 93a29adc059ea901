/** The tools screen: import (paste, file), slots, export and removal. */
import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './app-shell.ts';

/** Page object of the tools screen. */
export class ToolsPage extends AppShell {
  constructor(page: Page) {
    super(page);
  }

  /** Opens the import dialog and pastes a definition; returns the dialog. */
  async paste(text: string, fileName = 'tool.yaml'): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Import tools' }).first().click();
    const dialog = this.dialog('Import tools');
    await dialog.getByRole('textbox', { name: 'File name' }).fill(fileName);
    await dialog.getByRole('textbox', { name: 'Tool definition (YAML or JSON)' }).fill(text);
    return dialog;
  }

  /** Opens the import dialog and chooses a file from disk; returns the dialog. */
  async chooseFile(path: string): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Import tools' }).first().click();
    const dialog = this.dialog('Import tools');
    await dialog.getByTestId('tool-file-input').setInputFiles(path);
    return dialog;
  }

  /** Presses Import once the text has been checked, and waits for the dialog to close. */
  async confirmImport(dialog: Locator): Promise<void> {
    await expect(dialog.getByTestId('import-summary')).toContainText('Ready');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog).toBeHidden();
  }

  /** Shows a tool's detail. */
  async select(name: string): Promise<Locator> {
    await this.page.getByRole('listbox', { name: 'Tools' }).getByRole('option', { name: new RegExp(`^${name}\\b`) }).click();
    const detail = this.page.getByTestId('tool-detail');
    await expect(detail.getByRole('heading', { name })).toBeVisible();
    return detail;
  }

  /** The slot rows of the selected tool, as arrays of cell texts. */
  async slotRows(): Promise<string[][]> {
    const rows = this.page.getByRole('table', { name: 'Resource slots' }).locator('tbody tr');
    const count = await rows.count();
    const result: string[][] = [];
    for (let i = 0; i < count; i++) result.push((await rows.nth(i).locator('td').allInnerTexts()).map((t) => t.trim()));
    return result;
  }
}
