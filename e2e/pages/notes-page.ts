/**
 * Review notes as a person meets them on the review screen: the "+" in a diff row's gutter, the
 * composer under the row, notes drawn inline, and the notes panel with "Request changes".
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** Which side of the diff a line note is on, as the app names it. */
export type NoteSideName = 'sandbox' | 'original';

/** The notes of the review screen. */
export class NotesUi {
  constructor(readonly page: Page) {}

  /** The "+" of a line in the diff of `diff`. */
  gutterButton(diff: Locator, line: number, side: NoteSideName = 'sandbox'): Locator {
    return diff.getByRole('button', { name: `Add a note on line ${line} (${side})` });
  }

  /** Writes a note on one line through its "+" and saves it with Ctrl+Enter; returns the inline note. */
  async addLineNote(diff: Locator, path: string, line: number, body: string, side: NoteSideName = 'sandbox'): Promise<Locator> {
    const button = this.gutterButton(diff, line, side);
    await button.scrollIntoViewIfNeeded();
    // The "+" shows while the pointer is over its row.
    await diff.locator('.diff-row', { has: this.page.getByRole('button', { name: `Add a note on line ${line} (${side})` }) }).hover();
    await button.click();
    const composer = diff.getByRole('textbox', { name: `Note on Line ${line} (${side})` });
    await expect(composer).toBeFocused();
    await composer.fill(body);
    await composer.press('Control+Enter');
    await expect(composer).toBeHidden();
    const note = this.inlineNote(diff, `${path}, line ${line} (${side})`);
    await expect(note).toContainText(body);
    return note;
  }

  /** A note drawn in the diff, by its place ("src/a.ts, line 5 (sandbox)"). */
  inlineNote(diff: Locator, place: string): Locator {
    return diff.getByRole('article', { name: `Note on ${place}` });
  }

  /** The header's switch of the notes panel. */
  toggle(): Locator {
    return this.page.getByRole('button', { name: /^Notes/ });
  }

  /** The notes panel. */
  panel(): Locator {
    return this.page.getByRole('complementary', { name: 'Review notes' });
  }

  /** Opens the panel (when closed) and returns it. */
  async openPanel(): Promise<Locator> {
    if ((await this.toggle().getAttribute('aria-pressed')) !== 'true') await this.toggle().click();
    await expect(this.panel()).toBeVisible();
    return this.panel();
  }

  /** A note in the panel, by its place. */
  panelNote(place: string): Locator {
    return this.panel().getByRole('article', { name: `Note on ${place}` });
  }

  /** Presses "Request changes" and waits for the run it starts to end; returns the run panel. */
  async requestChanges(): Promise<Locator> {
    const panel = this.panel();
    await panel.getByRole('button', { name: /^Request changes/ }).click();
    const run = panel.getByRole('region', { name: 'Tool run' });
    await expect(run.getByRole('status')).toContainText(/Finished|Failed|Stopped|Timed out/, { timeout: 30_000 });
    return run;
  }
}
