/** The projects screen: create projects, link resources, edit aliases inline, unlink. */
import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './app-shell.ts';

/** Page object of the projects screen. */
export class ProjectsPage extends AppShell {
  constructor(page: Page) {
    super(page);
  }

  /** Creates a project through the dialog. */
  async create(name: string, description = ''): Promise<void> {
    await this.page.getByRole('button', { name: 'New project' }).first().click();
    const dialog = this.dialog('New project');
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    if (description) await dialog.getByRole('textbox', { name: 'Description' }).fill(description);
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await expect(dialog).toBeHidden();
  }

  /** Shows a project's detail. */
  async select(name: string): Promise<void> {
    await this.page.getByRole('listbox', { name: 'Projects' }).getByRole('option', { name: new RegExp(`^${escape(name)}\\b`) }).click();
    await expect(this.detail().getByRole('heading', { name })).toBeVisible();
  }

  /** The selected project's detail pane. */
  detail(): Locator {
    return this.page.getByTestId('project-detail');
  }

  /** The row of a linked resource in the detail. */
  link(resourceName: string): Locator {
    return this.detail().locator(`tr[data-resource="${resourceName}"]`);
  }

  /** Links a resource to the selected project, with an optional alias. */
  async linkResource(resourceName: string, alias?: string): Promise<Locator> {
    await this.detail().getByRole('button', { name: 'Link resource' }).first().click();
    const dialog = this.dialog(/^Link a resource to /);
    await dialog.getByRole('searchbox').fill(resourceName);
    await dialog.getByRole('option', { name: new RegExp(`^${escape(resourceName)}\\b`) }).click();
    if (alias !== undefined) await dialog.getByRole('textbox', { name: 'Alias' }).fill(alias);
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    return dialog;
  }

  /** Edits a link's alias in place and presses Enter. */
  async setAlias(resourceName: string, alias: string): Promise<void> {
    await this.link(resourceName).getByRole('button', { name: new RegExp(`^Alias of ${escape(resourceName)}`) }).click();
    const input = this.link(resourceName).getByRole('textbox', { name: `Alias of ${resourceName}` });
    await input.fill(alias);
    await input.press('Enter');
  }

  /** Unlinks a resource after confirming. */
  async unlink(resourceName: string): Promise<void> {
    await this.link(resourceName).getByRole('button', { name: `Unlink ${resourceName}` }).click();
    const dialog = this.dialog(`Unlink ${resourceName}?`);
    await dialog.getByRole('button', { name: 'Unlink' }).click();
    await expect(dialog).toBeHidden();
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
