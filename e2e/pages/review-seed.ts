/**
 * A plan over a real git repository, seeded through the CLI, with a sandbox whose files the spec
 * writes directly: `open(path)` shows that file's diff in the review (through the URL, as a link
 * would), so each spec only says what the original holds and what the tool changed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { ReviewPage } from './review-pages.ts';
import { bindery, type Workspace } from './workspace.ts';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'E2E',
  GIT_AUTHOR_EMAIL: 'e2e@x.invalid',
  GIT_COMMITTER_NAME: 'E2E',
  GIT_COMMITTER_EMAIL: 'e2e@x.invalid',
};

/** File contents by relative path (strings are written as UTF-8). */
export type Files = Record<string, string | Buffer>;

/** A seeded review: its page object and a way to open one file's diff. */
export interface SeededReview {
  review: ReviewPage;
  sandboxPath: string;
  open(file: string): Promise<Locator>;
}

async function writeAll(root: string, files: Files): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(path.join(root, file), content);
  }
}

/** Commits `original` to a new repository, provisions a plan and writes `changed` into its sandbox. */
export async function seedReview(
  app: { dataDir: string; page: Page },
  workspace: Workspace,
  original: Files,
  changed: Files,
): Promise<SeededReview> {
  const repo = await workspace.gitRepo('site');
  await writeAll(repo, original);
  execFileSync('git', ['add', '-A'], { cwd: repo, env: GIT_ENV });
  execFileSync('git', ['commit', '-q', '-m', 'site'], { cwd: repo, env: GIT_ENV });
  const tool = await workspace.file(
    'tool.yaml',
    'name: polish\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n',
  );
  await bindery(app.dataDir, 'resources', 'add', 'local/site', '--type', 'git-checkout', '--location', repo);
  await bindery(app.dataDir, 'projects', 'add', 'web');
  await bindery(app.dataDir, 'projects', 'link', 'web', 'local/site');
  await bindery(app.dataDir, 'tools', 'import', tool);
  const plan = (await bindery(app.dataDir, 'plans', 'create', 'polish', '--project', 'web')) as {
    plan_id: string;
    sandboxes: Array<{ id: string; path: string }>;
  };
  const sandbox = plan.sandboxes[0]!;
  await writeAll(sandbox.path, changed);
  const review = new ReviewPage(app.page);
  return {
    review,
    sandboxPath: sandbox.path,
    async open(file: string) {
      await app.page.evaluate((hash) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
      }, `#/plans/${plan.plan_id}/review/${sandbox.id}/${encodeURIComponent(file)}`);
      const diff = review.diff(file);
      await expect(diff).toBeVisible({ timeout: 15_000 });
      return diff;
    },
  };
}
