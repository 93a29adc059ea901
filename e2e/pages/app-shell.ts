/** The app shell as a test sees it: navigation, the header, toasts and the open dialog. */
import { expect, type Locator, type Page } from '@playwright/test';

/** The screens reachable from the navigation, by their link text. */
export type Screen = 'Resources' | 'Projects' | 'Tools' | 'Resource types';

/** Shell-level actions shared by every page object. */
export class AppShell {
  constructor(readonly page: Page) {}

  /** Opens a screen through the left navigation. */
  async open(screen: Screen): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: screen }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: screen })).toBeVisible();
  }

  /** The modal dialog currently open (there is at most one). */
  dialog(name?: string | RegExp): Locator {
    return this.page.getByRole('dialog', name ? { name } : undefined).or(this.page.getByRole('alertdialog', name ? { name } : undefined));
  }

  /** Waits for a toast containing the text. */
  async expectToast(text: string | RegExp): Promise<void> {
    await expect(this.page.getByRole('status').filter({ hasText: text })).toBeVisible();
  }

  /** The data directory shown in the header. */
  dataDir(): Locator {
    return this.page.getByTestId('data-dir');
  }
}
