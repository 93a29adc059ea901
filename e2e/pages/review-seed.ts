/**
 * A plan over a real git repository, seeded through the CLI, with a sandbox whose files the spec
 * writes directly: `open(path)` shows that file's diff in the review (through the URL, as a link
 * would), so each spec only says what the original holds and what the tool changed.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { ReviewPage } from './review-pages.ts';
import { bindery, writeFiles, type Files, type Workspace } from './workspace.ts';

export type { Files } from './workspace.ts';

/** What a seeded plan is called and holds; every name has a default. */
export interface PlanSeed {
  /** The repository's folder in the workspace and its resource `local/<repo>`. */
  repo?: string;
  tool?: string;
  project?: string;
  /** The tool's `run:` command, if it has one. */
  run?: string;
  /** Committed to the repository (beside its README). */
  original?: Files;
  /** Written into the sandbox after provisioning (null removes a file). */
  changed?: Files;
}

/** A provisioned plan with one git-worktree sandbox. */
export interface SeededPlan {
  repo: string;
  planId: string;
  sandboxId: string;
  sandboxPath: string;
}

/** Registers a repository, a project and a tool, creates a plan and writes `changed` into its sandbox. */
export async function seedPlan(dataDir: string, workspace: Workspace, seed: PlanSeed = {}): Promise<SeededPlan> {
  const name = seed.repo ?? 'site';
  const tool = seed.tool ?? 'polish';
  const project = seed.project ?? 'web';
  const repo = await workspace.gitRepo(name, { files: seed.original ?? {} });
  const run = seed.run === undefined ? '' : `run: ${JSON.stringify(seed.run)}\n`;
  const toolFile = await workspace.file(
    `${tool}.yaml`,
    `name: ${tool}\n${run}resource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n`,
  );
  await bindery(dataDir, 'resources', 'add', `local/${name}`, '--type', 'git-checkout', '--location', repo);
  await bindery(dataDir, 'projects', 'add', project);
  await bindery(dataDir, 'projects', 'link', project, `local/${name}`);
  await bindery(dataDir, 'tools', 'import', toolFile);
  const plan = (await bindery(dataDir, 'plans', 'create', tool, '--project', project)) as {
    plan_id: string;
    sandboxes: Array<{ id: string; path: string }>;
  };
  const sandbox = plan.sandboxes[0]!;
  await writeFiles(sandbox.path, seed.changed ?? {});
  return { repo, planId: plan.plan_id, sandboxId: sandbox.id, sandboxPath: sandbox.path };
}

/** Shows a sandbox's review (and one file's diff, given `file`) through the URL, as a link would. */
export async function showReview(page: Page, plan: SeededPlan, file?: string): Promise<ReviewPage> {
  const tail = file === undefined ? '' : `/${encodeURIComponent(file)}`;
  await page.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, `#/plans/${plan.planId}/review/${plan.sandboxId}${tail}`);
  return new ReviewPage(page);
}

/** A seeded review: its page object and a way to open one file's diff. */
export interface SeededReview {
  review: ReviewPage;
  sandboxPath: string;
  open(file: string): Promise<Locator>;
}

/** Commits `original` to a new repository, provisions a plan and writes `changed` into its sandbox. */
export async function seedReview(
  app: { dataDir: string; page: Page },
  workspace: Workspace,
  original: Files,
  changed: Files,
): Promise<SeededReview> {
  const plan = await seedPlan(app.dataDir, workspace, { original, changed });
  return {
    review: new ReviewPage(app.page),
    sandboxPath: plan.sandboxPath,
    async open(file: string) {
      const review = await showReview(app.page, plan, file);
      const diff = review.diff(file);
      await expect(diff).toBeVisible({ timeout: 15_000 });
      return diff;
    },
  };
}
