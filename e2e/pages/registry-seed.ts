/**
 * Realistic registry data for the screenshot spec: 24 resources (git checkouts on several
 * branches, some with uncommitted files, plain folders, one whose folder has vanished), custom
 * types, projects with aliased links and the reference's tools, created through the web host's
 * API like the renderer does (the CLI costs a process start per call).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Workspace } from './workspace.ts';

/** Calls one API method of a running `bindery serve`. */
export type ApiCall = (method: string, input: Record<string, unknown>) => Promise<unknown>;

/** An API caller for the web host at `origin` with its token; failures throw with the core's message. */
export function webApi(origin: string, token: string): ApiCall {
  return async (method, input) => {
    const response = await fetch(`${origin}/api/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Bindery-Token': token },
      body: JSON.stringify(input),
    });
    const result = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
    if (!result.ok) throw new Error(`${method} failed: ${result.error?.message ?? response.status}`);
    return result.value;
  };
}

const REPOS: Array<[name: string, branch: string, dirty: number]> = [
  ['billing-api', 'main', 0],
  ['web-frontend', 'develop', 3],
  ['mobile-app', 'feature/offline-sync', 1],
  ['auth-service', 'main', 0],
  ['search-indexer', 'main', 2],
  ['payments-gateway', 'release/2.4', 0],
  ['notification-worker', 'develop', 5],
  ['design-system', 'main', 0],
  ['infra-terraform', 'main', 1],
  ['data-pipeline', 'feature/parquet', 0],
  ['analytics-dashboard', 'main', 4],
  ['cli-tools', 'main', 0],
  ['docs-site', 'main', 0],
  ['ml-models', 'experiment/lora', 2],
];

const FOLDERS = ['shared-config', 'fixtures', 'build-cache', 'datasets-raw', 'secrets-template', 'release-notes', 'scratch', 'vendor-sdk', 'proto-definitions'];

const PROJECTS: Record<string, Array<[resource: string, alias: string | null]>> = {
  billing: [
    ['billing-api', 'repo'],
    ['payments-gateway', null],
    ['shared-config', 'config'],
    ['fixtures', null],
  ],
  'web-platform': [
    ['web-frontend', 'repo'],
    ['design-system', null],
    ['handbook', 'docs'],
    ['shared-config', 'config'],
  ],
  mobile: [
    ['mobile-app', 'repo'],
    ['auth-service', null],
  ],
  'data-platform': [
    ['data-pipeline', 'repo'],
    ['analytics-dashboard', null],
    ['ml-models', null],
    ['datasets-raw', 'output'],
  ],
  infrastructure: [],
};

/** The "Mixed Bindings" example of tool_bindings.md, as printed there (named by its file). */
export const MIXED_TOOL = `resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
    binding: contextual
  - name: config
    resource_type: fs-directory
    access: read_only
    binding: static
    static_resource: local/shared-config
  - name: output
    resource_type: fs-directory
    access: write_only
    binding: parameter
`;

const TOOLS: Record<string, string> = {
  'mixed.yaml': MIXED_TOOL,
  'lint-fix.yaml': `description: Runs the linter and applies its fixes
run: npm run lint -- --fix
resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
`,
  'release-notes.yaml': `description: Drafts release notes from the git history
resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_only
  - name: notes
    resource_type: fs-directory
    access: write_only
    binding: static
    static_resource: local/release-notes
  - name: docs
    resource_type: docs-site
    access: read_write
    required: false
`,
  'dataset-sync.yaml': `description: Copies a dataset into the pipeline's input folder
run: ./scripts/sync.sh
resource_slots:
  - name: source
    resource_type: fs-directory
    access: read_only
    binding: parameter
  - name: repo
    resource_type: git-checkout
    access: read_write
`,
};

/** Creates the folders in `workspace` and registers everything through `call`. */
export async function seedRegistry(call: ApiCall, workspace: Workspace): Promise<void> {
  await call('addType', { name: 'docs-site', description: 'Documentation trees built by a static site generator', parentTypes: ['fs-directory'], sandboxStrategy: 'copy_on_write' });
  await call('addType', {
    name: 'monorepo',
    description: 'Large repositories provisioned with a sparse checkout',
    parentTypes: ['git-checkout'],
    handler: 'monorepo-handler.js:MonorepoHandler',
    sandboxStrategy: 'git_worktree',
  });
  for (const [name, branch, dirty] of REPOS) {
    const location = await workspace.gitRepo(`src/${name}`, { branch, dirty });
    await call('addResource', { name: `local/${name}`, typeName: 'git-checkout', location, description: `The ${name} repository` });
  }
  for (const name of FOLDERS) {
    await call('addResource', { name: `local/${name}`, typeName: 'fs-directory', location: await workspace.directory(`shared/${name}`) });
  }
  await call('addResource', { name: 'team/handbook', typeName: 'docs-site', location: await workspace.directory('shared/handbook'), sandboxStrategy: 'none' });
  // One folder vanishes after registration, as happens in real life.
  await fs.rm(path.join(workspace.root, 'shared', 'scratch'), { recursive: true });
  for (const [project, links] of Object.entries(PROJECTS)) {
    await call('addProject', { name: project, description: `Everything the ${project} team works on` });
    for (const [resource, alias] of links) {
      await call('linkResource', { project, resource: resource === 'handbook' ? 'team/handbook' : `local/${resource}`, alias });
    }
  }
  for (const [fileName, text] of Object.entries(TOOLS)) await call('importTools', { text, fileName });
}
