/**
 * Partial commits in the review's diff: the hunk checkboxes and the line toggles in the number
 * gutter, by the numbers patch-selection gives them, and the commit dialog's parts.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** The partial-commit controls of one file's diff. */
export class PartialDiff {
  constructor(
    readonly page: Page,
    readonly diff: Locator,
  ) {}

  /** The tri-state checkbox of hunk `id` (1-based, as the CLI numbers them). */
  hunk(id: number): Locator {
    return this.diff.getByRole('checkbox', { name: `Take hunk ${id} in the commit`, exact: true });
  }

  /** The toggle of a changed line: `old` deleted lines by old number, `new` added lines by new number. */
  line(side: 'old' | 'new', no: number): Locator {
    return this.diff.getByRole('checkbox', { name: `Take ${side === 'old' ? 'deleted' : 'added'} line ${no} in the commit`, exact: true });
  }

  /** Clicks a hunk's checkbox and waits for the state it should reach. */
  async setHunk(id: number, on: boolean): Promise<void> {
    await this.hunk(id).click();
    await this.expectHunk(id, on ? 'true' : 'false');
  }

  /** Clicks a line's toggle (with Shift for a range from the last one toggled). */
  async toggleLine(side: 'old' | 'new', no: number, range = false): Promise<void> {
    await this.line(side, no).click(range ? { modifiers: ['Shift'] } : undefined);
  }

  /** Expects a hunk's aria-checked: 'true', 'false' or 'mixed'. */
  async expectHunk(id: number, state: 'true' | 'false' | 'mixed'): Promise<void> {
    await expect(this.hunk(id)).toHaveAttribute('aria-checked', state);
  }

  /** Expects a line's toggle state. */
  async expectLine(side: 'old' | 'new', no: number, on: boolean): Promise<void> {
    await expect(this.line(side, no)).toHaveAttribute('aria-checked', String(on));
  }
}

/** Commits from the open commit dialog and waits for it to close. */
export async function confirmCommit(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: /^Commit \d/ }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
}
