/** The resource types screen: add, edit and remove types. */
import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './app-shell.ts';

/** What a test may set on a new type. */
export interface TypeOptions {
  parents?: string[];
  handler?: string;
  strategy?: 'git_worktree' | 'copy_on_write' | 'none';
}

/** Page object of the types screen. */
export class TypesPage extends AppShell {
  constructor(page: Page) {
    super(page);
  }

  /** The row of a type (rows are keyed by type name). */
  row(name: string): Locator {
    return this.page.getByRole('table', { name: 'Resource types' }).locator(`[role="row"][data-row-id="${name}"]`);
  }

  /** Opens the add dialog and fills it; returns the dialog without submitting. */
  async fillNew(name: string, options: TypeOptions = {}): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Add type' }).click();
    const dialog = this.dialog('Add resource type');
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    for (const parent of options.parents ?? []) await dialog.getByRole('checkbox', { name: parent, exact: true }).check();
    if (options.handler !== undefined) await dialog.getByRole('textbox', { name: 'Handler' }).fill(options.handler);
    if (options.strategy !== undefined) await dialog.getByRole('combobox', { name: 'Sandbox strategy' }).selectOption(options.strategy);
    return dialog;
  }

  /** Adds a type and waits for the dialog to close. */
  async add(name: string, options: TypeOptions = {}): Promise<void> {
    const dialog = await this.fillNew(name, options);
    await dialog.getByRole('button', { name: 'Add type' }).click();
    await expect(dialog).toBeHidden();
  }
}
