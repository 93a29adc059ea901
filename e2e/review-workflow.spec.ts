/**
 * The review workflow end to end through `bindery serve` on real git repositories: register, link,
 * import a tool with `run`, inspect bindings (an ambiguity fixed by setting an alias), provision,
 * run the tool and watch its changes appear, review a text and a binary change, commit a subset
 * and see the original updated, undo, resolve a conflict made in the original meanwhile, discard
 * another plan and restore it from the trash. Screenshots of the inspector, the plan page and the
 * diff view (split and unified) go to e2e/artifacts/screenshots/.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS_DIR, expect, test } from './fixtures.ts';
import { ProjectsPage } from './pages/projects-page.ts';
import { ResourcesPage } from './pages/resources-page.ts';
import { ActivityPage, InspectorPage, openPlans } from './pages/review-pages.ts';
import { ToolsPage } from './pages/tools-page.ts';
import { Workspace } from './pages/workspace.ts';

let workspace: Workspace;
test.beforeEach(async () => {
  workspace = await Workspace.create();
});
test.afterEach(async () => {
  await workspace.dispose();
});

const INVOICE = `import { round } from './money.ts';

/** One line of an invoice. */
export interface InvoiceLine {
  description: string;
  quantity: number;
  unitPrice: number;
}

/** An invoice with its lines. */
export interface Invoice {
  id: string;
  customer: string;
  lines: InvoiceLine[];
}

/** The total of an invoice before tax. */
export function subtotal(invoice: Invoice): number {
  let total = 0;
  for (const line of invoice.lines) {
    total += line.quantity * line.unitPrice;
  }
  return total;
}

/** The tax of an invoice at a rate. */
export function tax(invoice: Invoice, rate: number): number {
  return subtotal(invoice) * rate;
}

/** The amount to pay. */
export function total(invoice: Invoice, rate = 0.2): number {
  return subtotal(invoice) + tax(invoice, rate);
}

/** A label for lists. */
export function label(invoice: Invoice): string {
  return 'Invoice ' + invoice.id + ' for ' + invoice.customer;
}
`;

// The "agent": edits the invoice module the way a refactoring tool would.
const EDIT_SCRIPT = `import fs from 'node:fs';
const file = 'src/invoice.ts';
let text = fs.readFileSync(file, 'utf8');
text = text.replace('  let total = 0;\\n  for (const line of invoice.lines) {\\n    total += line.quantity * line.unitPrice;\\n  }\\n  return total;', '  return invoice.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);');
text = text.replace('return subtotal(invoice) * rate;', 'return round(subtotal(invoice) * rate);');
text = text.replace("return 'Invoice ' + invoice.id + ' for ' + invoice.customer;", 'return \`Invoice \${invoice.id} for \${invoice.customer}\`;');
text = text.replace('  customer: string;\\n', '  customer: string;\\n  /** ISO date the invoice is due. */\\n  dueDate: string;\\n');
fs.writeFileSync(file, text);
console.log('edited ' + file);
`;

const SCREENSHOTS = path.join(ARTIFACTS_DIR, 'screenshots');

async function shot(page: Page, name: string): Promise<void> {
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  // Toasts of earlier steps would cover the screen being shown.
  const dismiss = page.locator('.toasts').getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** The same screen in the dark theme, then back to light. */
async function shotDark(page: Page, name: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, name);
  await page.emulateMedia({ colorScheme: 'light' });
}

function toolYaml(script: string): string {
  const command = `printf 'new line\\n' >> README.md && printf '\\000\\001' > data.bin && node '${script}'`;
  return `name: invoice-refactor
description: Tidies the invoice module and notes it in the README
run: ${JSON.stringify(command)}
resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
`;
}

async function seedRepos(): Promise<{ api: string; web: string; script: string }> {
  const api = await workspace.gitRepo('billing-api');
  await fs.mkdir(path.join(api, 'src'), { recursive: true });
  await fs.writeFile(path.join(api, 'src', 'invoice.ts'), INVOICE);
  await fs.writeFile(
    path.join(api, 'src', 'money.ts'),
    'export const round = (n: number) => Math.round(n * 100) / 100;\n',
  );
  const { execFileSync } = await import('node:child_process');
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'E2E',
    GIT_AUTHOR_EMAIL: 'e2e@x.invalid',
    GIT_COMMITTER_NAME: 'E2E',
    GIT_COMMITTER_EMAIL: 'e2e@x.invalid',
  };
  execFileSync('git', ['add', '-A'], { cwd: api, env });
  execFileSync('git', ['commit', '-q', '-m', 'Invoice module'], { cwd: api, env });
  const web = await workspace.gitRepo('billing-web');
  const script = await workspace.file('agent/edit-invoice.mjs', EDIT_SCRIPT);
  return { api, web, script };
}

test('walks the whole review story on real repositories', async ({ app, pageErrors }) => {
  const { page } = app;
  const { api, web, script } = await seedRepos();

  // Register, link, import.
  const resources = new ResourcesPage(page);
  await resources.open('Resources');
  await resources.register(api);
  await resources.register(web);
  const projects = new ProjectsPage(page);
  await projects.open('Projects');
  await projects.create('billing', 'Invoices and payments');
  await projects.select('billing');
  await expect(await projects.linkResource('local/billing-api')).toBeHidden();
  await expect(await projects.linkResource('local/billing-web')).toBeHidden();
  const tools = new ToolsPage(page);
  await tools.open('Tools');
  await tools.confirmImport(await tools.paste(toolYaml(script), 'invoice-refactor.yaml'));

  // Inspect: two git checkouts and no alias make "repo" ambiguous; an alias fixes it.
  const inspector = new InspectorPage(page);
  await inspector.show('invoice-refactor', 'billing');
  const slot = inspector.slot('repo');
  await expect(slot).toContainText('Not bound');
  await expect(slot).toContainText('2 resources of type git-checkout are linked to project "billing"');
  await expect(slot.getByRole('table', { name: 'Candidates for repo' }).getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Provision and run' })).toBeDisabled();
  await shot(page, 'review-inspector-ambiguous');
  await slot.getByRole('button', { name: 'Set alias “repo” on local/billing-api' }).click();
  await inspector.expectToast('Set alias "repo" on local/billing-api in billing.');
  await expect(slot).toContainText('local/billing-api');
  await expect(slot).toContainText('its alias equals the slot name "repo"');
  await expect(slot.getByRole('row').filter({ hasText: 'chosen' })).toContainText('local/billing-api');
  await shot(page, 'review-inspector');

  // Provision and run: the run starts by itself, the output streams in and the changes appear.
  const plan = await inspector.provision();
  const card = plan.sandbox('local/billing-api');
  await expect(card).toContainText('ready');
  await expect(card).toContainText('Git worktree');
  const panel = await plan.awaitRun();
  await expect(panel.getByRole('status')).toContainText('Finished (exit 0)');
  await expect(panel.getByLabel('Run output')).toContainText('edited src/invoice.ts');
  await expect(card).toContainText('3 changes');
  await shot(page, 'review-plan');
  await shotDark(page, 'review-plan-dark');

  // Review: a text diff, a binary change, both layouts; a file written meanwhile appears live.
  const review = await plan.review('local/billing-api');
  await expect(review.files()).toContainText('README.md');
  await expect(review.files()).toContainText('data.bin');
  const diff = await review.select('src/invoice.ts');
  await expect(diff).toContainText('dueDate');
  await page.getByRole('radio', { name: 'Split' }).click();
  await shot(page, 'review-diff-split');
  await shotDark(page, 'review-diff-split-dark');
  await page.getByRole('radio', { name: 'Unified' }).click();
  await expect(diff).toContainText('reduce');
  await shot(page, 'review-diff-unified');
  await page.getByRole('radio', { name: 'Split' }).click();
  const binary = await review.select('data.bin');
  await expect(binary).toContainText('Binary');
  const text = await review.select('README.md');
  await expect(text).toContainText('new line');

  // Keyboard: j / k and the arrows walk the files; n / p walk the changes inside a diff.
  await page.keyboard.press('j');
  await expect(review.file('data.bin')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('k');
  await expect(review.file('src/invoice.ts')).toHaveAttribute('aria-selected', 'true');
  await review.diff('src/invoice.ts').getByRole('table').press('n');
  await expect(review.diff('src/invoice.ts').getByRole('group', { name: 'Changes' })).toContainText('1 / 4');
  await review.file('README.md').click();

  const planDetail = await readPlan(app.dataDir);
  const liveFile = path.join(planDetail.sandboxPath, 'NOTES.md');
  await fs.writeFile(liveFile, 'written while the review is open\n');
  await expect(review.file('NOTES.md')).toBeVisible({ timeout: 15_000 });
  await fs.rm(liveFile);
  await expect(review.file('NOTES.md')).toHaveCount(0, { timeout: 15_000 });

  // Commit a subset: README.md only; the original on disk changes, nothing else does.
  await review.check('data.bin', false);
  await review.check('src/invoice.ts', false);
  let dialog = await review.startCommit();
  await expect(dialog).toContainText('1 selected file will be written');
  await dialog.getByRole('button', { name: 'Commit 1 file' }).click();
  await expect(review.outcome()).toContainText('local/billing-api: wrote 1 file (README.md).');
  expect(await fs.readFile(path.join(api, 'README.md'), 'utf8')).toBe('# billing-api\nnew line\n');
  await expect(fs.access(path.join(api, 'data.bin'))).rejects.toThrow();

  // Undo restores the original, once confirmed.
  await page.getByRole('button', { name: 'Undo last commit' }).click();
  await review.dialog(/^Undo the last commit/).getByRole('button', { name: 'Undo commit' }).click();
  await expect(review.outcome()).toContainText(
    'undid the last commit; restored 1 file in the original (README.md)',
  );
  expect(await fs.readFile(path.join(api, 'README.md'), 'utf8')).toBe('# billing-api\n');

  // Someone edits README.md in the original meanwhile: a conflict, resolved before anything is written.
  await fs.writeFile(path.join(api, 'README.md'), '# billing-api\nEdited by hand.\n');
  await expect(review.row('README.md')).toContainText('conflict', { timeout: 15_000 });
  await review.check('data.bin', true);
  await review.check('src/invoice.ts', true);
  dialog = await review.startCommit();
  await expect(dialog.getByRole('region', { name: 'Conflicts' })).toContainText('Conflict 1 of 1');
  // Both sides added a line at the same place: the dry run clashes, so the three-way view shows all three.
  await expect(dialog.getByRole('table', { name: 'Three-way view: base, original, sandbox' })).toContainText(
    'Edited by hand.',
  );
  await expect(dialog.getByRole('button', { name: 'Commit 3 files' })).toBeDisabled();
  await shot(page, 'review-conflict');
  await dialog.getByRole('radio', { name: /Take sandbox/ }).check();
  await dialog.getByRole('button', { name: 'Commit 3 files' }).click();
  await expect(review.outcome()).toContainText('wrote 3 files');
  expect(await fs.readFile(path.join(api, 'README.md'), 'utf8')).toBe('# billing-api\nnew line\n');
  expect(await fs.readFile(path.join(api, 'src', 'invoice.ts'), 'utf8')).toContain('dueDate: string;');
  expect([...(await fs.readFile(path.join(api, 'data.bin')))]).toEqual([0, 1]);

  // Another plan, discarded with its counts, then restored from the trash.
  await inspector.show('invoice-refactor', 'billing');
  const second = await inspector.provision();
  await second.awaitRun();
  await expect(second.sandbox('local/billing-api')).toContainText(/\d changes?/);
  await page.getByRole('button', { name: 'Discard all' }).click();
  const discard = second.dialog('Discard every sandbox of this plan');
  await expect(discard).toContainText('local/billing-api');
  await expect(discard).toContainText(/\d changes? \(/);
  await discard.getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByRole('status', { name: 'Outcome' })).toContainText(
    'are in the trash and can be restored',
  );
  await expect(second.title()).toContainText('Discarded');

  const activity = new ActivityPage(page);
  await activity.openLog();
  await expect(page.getByRole('region', { name: 'This session' })).toContainText('Plan discarded');
  await shot(page, 'review-activity');
  const trash = await activity.trash();
  await expect(trash).toContainText('local/billing-api');
  await trash.getByRole('button', { name: 'Restore local/billing-api' }).click();
  await expect(second.title()).toContainText('Ready for review');
  await expect(second.sandbox('local/billing-api')).toContainText(/\d changes?/);

  await openPlans(page);
  await expect(page.getByRole('table', { name: 'Plans' }).getByRole('row')).toHaveCount(3);
  await shot(page, 'review-plans-list');
  await page.getByRole('combobox', { name: 'Status' }).selectOption('committed');
  await expect(page.getByRole('table', { name: 'Plans' }).getByRole('row')).toHaveCount(2);
  expect(pageErrors).toEqual([]);
});

/** The sandbox path of the newest plan's only sandbox, through the CLI. */
async function readPlan(dataDir: string): Promise<{ sandboxPath: string }> {
  const { bindery } = await import('./pages/workspace.ts');
  const plans = (await bindery(dataDir, 'plans', 'list')) as Array<{ plan_id: string }>;
  const detail = (await bindery(dataDir, 'plans', 'show', plans[0]!.plan_id)) as {
    sandboxes: Array<{ path: string }>;
  };
  return { sandboxPath: detail.sandboxes[0]!.path };
}

test('inspector: a parameter slot takes a resource from its picker, and a missing one is linked in place', async ({
  app,
  pageErrors,
}) => {
  const { page } = app;
  const { bindery } = await import('./pages/workspace.ts');
  const api = await workspace.gitRepo('billing-api');
  const notes = await workspace.directory('release-notes');
  await bindery(
    app.dataDir,
    'resources',
    'add',
    'local/billing-api',
    '--type',
    'git-checkout',
    '--location',
    api,
  );
  await bindery(
    app.dataDir,
    'resources',
    'add',
    'local/release-notes',
    '--type',
    'fs-directory',
    '--location',
    notes,
  );
  await bindery(app.dataDir, 'projects', 'add', 'billing');
  const tool = await workspace.file(
    'notes-tool.yaml',
    'name: notes\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_only\n  - name: notes\n    resource_type: fs-directory\n    access: read_write\n    binding: parameter\n',
  );
  await bindery(app.dataDir, 'tools', 'import', tool);

  const inspector = new InspectorPage(page);
  await inspector.show('notes', 'billing');
  const repo = inspector.slot('repo');
  await expect(repo).toContainText(
    'No resource of type git-checkout (or a sub-type) is linked to project "billing"',
  );
  const notesSlot = inspector.slot('notes');
  await expect(notesSlot).toContainText('Deferred');
  await expect(page.getByRole('button', { name: 'Provision plan' })).toBeDisabled();

  await repo.getByRole('combobox', { name: 'Resource to link' }).selectOption('local/billing-api');
  await repo.getByRole('button', { name: 'Link to project' }).click();
  await expect(repo).toContainText('the only compatible resource in the project');
  // Only compatible resources are offered: a git checkout is not an fs-directory (it is the other way round).
  const picker = notesSlot.getByRole('combobox', { name: 'Resource for notes' });
  await expect(picker.locator('option')).toHaveText([
    'Decide when provisioning (deferred)',
    'local/release-notes (fs-directory)',
  ]);
  await picker.selectOption('local/release-notes');
  await expect(notesSlot).toContainText('Bound to local/release-notes');
  const plan = await inspector.provision();
  await expect(plan.title()).toContainText('Ready for review');
  await expect(plan.sandbox('local/release-notes')).toContainText('Copy on write');
  await expect(plan.sandbox('local/billing-api')).toContainText('read only');
  await expect(page.getByText('notes=local/release-notes')).toBeVisible();
  expect(pageErrors).toEqual([]);
});
