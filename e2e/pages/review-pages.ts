/**
 * Page objects of the review workflow: the binding inspector, a plan's page and the review of one
 * sandbox. Locators follow what a person sees (roles and names), like the registry page objects.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './app-shell.ts';

/** Opens one of the work screens through the navigation. */
async function openWork(page: Page, label: 'Binding inspector' | 'Plans' | 'Activity'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
  await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible();
}

/** The binding inspector. */
export class InspectorPage extends AppShell {
  /** Opens the inspector on a tool and a project. */
  async show(tool: string, project: string): Promise<void> {
    await openWork(this.page, 'Binding inspector');
    await this.page.getByRole('combobox', { name: 'Tool' }).selectOption(tool);
    await this.page.getByRole('combobox', { name: 'Project' }).selectOption(project);
  }

  /** The card of one slot. */
  slot(name: string): Locator {
    return this.page.getByRole('region', { name: `Slot ${name}` });
  }

  /** Presses "Provision plan" ("Provision and run" for a tool with a run command) and waits for the plan page. */
  async provision(): Promise<PlanPage> {
    await this.page.getByRole('button', { name: /^Provision (plan|and run)$/ }).click();
    const plan = new PlanPage(this.page);
    await expect(this.page.getByRole('link', { name: '← All plans' })).toBeVisible();
    return plan;
  }
}

/** One plan's page. */
export class PlanPage extends AppShell {
  /** The plan's status badge text in the title. */
  title(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  /** The card of a sandbox, by resource name. */
  sandbox(resourceName: string): Locator {
    return this.page.getByRole('region', { name: `Sandbox of ${resourceName}` });
  }

  /** The run panel. */
  runPanel(): Locator {
    return this.page.getByRole('region', { name: 'Tool run' });
  }

  /** Runs the tool and waits for it to end; returns the panel. */
  async runTool(): Promise<Locator> {
    const panel = this.runPanel();
    await panel.getByRole('button', { name: /Run tool|Run again/ }).click();
    await expect(panel.getByRole('status')).toContainText(/Finished|Failed|Stopped|Timed out/, {
      timeout: 30_000,
    });
    return panel;
  }

  /** Waits for the run that starts after "Provision and run" to end; returns the panel. */
  async awaitRun(): Promise<Locator> {
    const panel = this.runPanel();
    await expect(panel.getByRole('status')).toContainText(/Finished|Failed|Stopped|Timed out/, {
      timeout: 30_000,
    });
    return panel;
  }

  /** Opens the review of a sandbox. */
  async review(resourceName: string): Promise<ReviewPage> {
    await this.sandbox(resourceName).getByRole('button', { name: 'Review changes' }).click();
    await expect(
      this.page.getByRole('heading', { level: 1, name: new RegExp(`Review.*${resourceName}`) }),
    ).toBeVisible();
    return new ReviewPage(this.page);
  }
}

/** The review of one sandbox. */
export class ReviewPage extends AppShell {
  /** The changed-files list. */
  files(): Locator {
    return this.page.getByRole('listbox', { name: 'Changed files' });
  }

  /** The row button of a file. */
  file(path: string): Locator {
    return this.files().locator(`.file-row-main[data-path="${path}"]`);
  }

  /** The row of a file (status, checkbox, badges). */
  row(path: string): Locator {
    return this.files()
      .locator('.file-row')
      .filter({ has: this.page.locator(`.file-row-main[data-path="${path}"]`) });
  }

  /** Shows a file's diff. */
  async select(path: string): Promise<Locator> {
    await this.file(path).click();
    return this.diff(path);
  }

  /** The diff view of a file. */
  diff(path: string): Locator {
    return this.page.getByRole('region', { name: `Changes in ${path}` });
  }

  /** The checkbox that includes a file in the next commit (the row also has its "Viewed" one). */
  commitBox(path: string): Locator {
    return this.row(path).getByRole('checkbox', { name: `Commit ${path}` });
  }

  /** Includes or leaves out a file of the next commit. */
  async check(path: string, on: boolean): Promise<void> {
    await this.commitBox(path).setChecked(on);
  }

  /** Opens the commit dialog. */
  async startCommit(): Promise<Locator> {
    await this.page.getByRole('button', { name: /^Commit (all|selected)/ }).click();
    return this.dialog(/^Commit to /);
  }

  /** The outcome callout. */
  outcome(): Locator {
    return this.page.getByRole('status', { name: 'Outcome' });
  }
}

/** The activity screen (log and trash). */
export class ActivityPage extends AppShell {
  /** Opens the log. */
  async openLog(): Promise<void> {
    await openWork(this.page, 'Activity');
  }

  /** Opens the trash tab. */
  async trash(): Promise<Locator> {
    await this.page.getByRole('tab', { name: 'Trash' }).click();
    return this.page.getByRole('table', { name: 'Trash' });
  }
}

/** Opens the plans list. */
export async function openPlans(page: Page): Promise<void> {
  await openWork(page, 'Plans');
}
