/** The resources screen: register, filter, edit and remove folders. */
import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './app-shell.ts';

/** What a test may fill in the register dialog beyond the folder. */
export interface RegisterOptions {
  name?: string;
  type?: string;
}

/** Page object of the resources screen. */
export class ResourcesPage extends AppShell {
  constructor(page: Page) {
    super(page);
  }

  /** The resources grid. */
  table(): Locator {
    return this.page.getByRole('table', { name: 'Resources' });
  }

  /** The row of a resource, by its name. */
  row(name: string): Locator {
    return this.table()
      .getByRole('row')
      .filter({ has: this.page.getByRole('cell').getByText(name, { exact: true }) });
  }

  /** Opens the register dialog and types the folder; waits for Bindery's verdict on it. */
  async startRegister(location: string): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Register folder' }).first().click();
    const dialog = this.dialog('Register folder');
    await dialog.getByRole('textbox', { name: 'Folder' }).fill(location);
    await expect(dialog.getByTestId('folder-verdict')).toBeVisible();
    return dialog;
  }

  /** Registers a folder, keeping the suggested name and type unless given. */
  async register(location: string, options: RegisterOptions = {}): Promise<void> {
    const dialog = await this.startRegister(location);
    if (options.name !== undefined) await dialog.getByRole('textbox', { name: 'Name' }).fill(options.name);
    if (options.type !== undefined) await dialog.getByRole('combobox', { name: 'Type' }).selectOption(options.type);
    await dialog.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(dialog).toBeHidden();
  }

  /** Types into the text filter. */
  async filter(text: string): Promise<void> {
    await this.page.getByRole('searchbox', { name: 'Filter resources' }).fill(text);
  }

  /** Picks a type in the type filter ('' for all). */
  async filterType(typeName: string): Promise<void> {
    const select = this.page.getByRole('combobox', { name: 'Filter by type' });
    if (typeName === '') await select.selectOption({ index: 0 });
    else await select.selectOption({ value: typeName });
  }

  /** Opens the remove confirmation of a resource. */
  async startRemove(name: string): Promise<Locator> {
    await this.row(name).getByRole('button', { name: `Remove ${name}` }).click();
    return this.dialog(`Remove ${name}?`);
  }
}
