/** `bindery plans` and `bindery trash` end to end through main(), on real repositories and folders. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitRepo, tempDir, writeFiles } from '../../testing/fixtures.ts';
import { runCli } from '../../testing/cli-process.ts';

const MIXED = fs.readFileSync(path.join(import.meta.dirname, '../../testing/reference/mixed.yaml'), 'utf8');

interface BoundJson {
  slot_name: string;
  resource_id: string;
  resource_type: string;
  sandbox_path: string;
  access: string;
  strategy: string;
  fallback_reason: string | null;
}

/** The reference's mixed-bindings tool over a git repo, a static config folder and an output folder. */
async function seeded() {
  const data = tempDir('bindery-cli-');
  const repo = gitRepo({ 'src/app.ts': 'export const a = 1;\n', 'README.md': '# app\n' });
  const config = tempDir();
  writeFiles(config, { 'settings.json': '{"x":1}\n' });
  const output = tempDir();
  const toolFile = path.join(tempDir(), 'mixed.yaml');
  fs.writeFileSync(toolFile, MIXED);
  const ok = async (args: string[]) => expect((await runCli(data, args)).code, args.join(' ')).toBe(0);
  await ok(['resources', 'add', 'local/app', '--type', 'git-checkout', '--location', repo]);
  await ok(['resources', 'add', 'local/shared-config', '--type', 'fs-directory', '--location', config]);
  await ok(['resources', 'add', 'local/out', '--type', 'fs-directory', '--location', output]);
  await ok(['projects', 'add', 'demo']);
  await ok(['projects', 'link', 'demo', 'local/app']);
  await ok(['tools', 'import', toolFile]);
  return { data, repo, config, output };
}

async function createPlan(data: string) {
  const created = await runCli(data, ['--json', 'plans', 'create', 'mixed', '--project', 'demo', '--param', 'output=local/out']);
  expect(created.code, created.stdout + created.stderr).toBe(0);
  const plan = created.json<{ plan_id: string; status: string; bound_resources: BoundJson[] }>();
  const slot = (name: string) => plan.bound_resources.find((b) => b.slot_name === name) as BoundJson;
  return { plan, slot };
}

describe('bindery plans create', () => {
  it('refuses to provision while a parameter slot has no value, naming it', async () => {
    const { data } = await seeded();
    const result = await runCli(data, ['--json', 'plans', 'create', 'mixed', '--project', 'demo']);
    expect(result.code).toBe(1);
    const { error } = result.json<{ error: { code: string; message: string; details: { deferred_slots: string[] } } }>();
    expect(error.code).toBe('validation_error');
    expect(error.message).toContain('--param output=<resource name or id>');
    expect(error.details.deferred_slots).toEqual(['output']);
    expect((await runCli(data, ['--json', 'plans', 'list'])).json()).toEqual([]);
  });

  it('prints the plan id and each bound resource with the reference field names, strategy and fallback', async () => {
    const { data, repo } = await seeded();
    const { plan, slot } = await createPlan(data);
    expect(plan.plan_id).toMatch(/^[0-9A-Z]{26}$/);
    expect(plan.status).toBe('ready');
    expect(plan.bound_resources.map((b) => b.slot_name)).toEqual(['repo', 'config', 'output']);
    expect(slot('repo')).toMatchObject({ resource_type: 'git-checkout', access: 'read_write', strategy: 'git_worktree', fallback_reason: null });
    expect(slot('config')).toMatchObject({ resource_type: 'fs-directory', access: 'read_only', strategy: 'copy_on_write' });
    expect(slot('output')).toMatchObject({ access: 'write_only' });
    for (const b of plan.bound_resources) {
      expect(Object.keys(b)).toEqual(expect.arrayContaining(['slot_name', 'resource_id', 'resource_type', 'sandbox_path', 'access']));
      expect(b.sandbox_path.startsWith(path.join(data, 'sandboxes', plan.plan_id))).toBe(true);
    }
    expect(fs.readFileSync(path.join(slot('repo').sandbox_path, 'src/app.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect(fs.readdirSync(slot('output').sandbox_path)).toEqual([]);
    expect(git(repo, 'status', '--porcelain')).toBe('');

    const human = await runCli(data, ['plans', 'show', plan.plan_id]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/repo\s+local\/app\s+read_write\s+git_worktree/);
    expect(human.stdout).toContain('history:');
    const listed = await runCli(data, ['--json', 'plans', 'list', '--status', 'ready']);
    expect(listed.json<Array<{ plan_id: string }>>().map((p) => p.plan_id)).toEqual([plan.plan_id]);
  });
});

describe('bindery plans create fallback', () => {
  it('says when a git checkout could not be a worktree and was copied instead', async () => {
    const { data, repo } = await seeded();
    fs.rmSync(path.join(repo, '.git'), { recursive: true, force: true });
    const { slot } = await createPlan(data);
    expect(slot('repo')).toMatchObject({ strategy: 'copy_on_write', fallback_reason: expect.stringMatching(/not a usable git work tree|not a git/) });
    expect(fs.readFileSync(path.join(slot('repo').sandbox_path, 'src/app.ts'), 'utf8')).toBe('export const a = 1;\n');
    const human = await runCli(data, ['plans', 'list']);
    const planId = human.stdout.split('\n')[1]!.split(/\s+/)[0]!;
    expect((await runCli(data, ['plans', 'show', planId])).stdout).toMatch(/local\/app: git_worktree fell back to copy_on_write: /);
  });
});

describe('bindery plans review, commit, undo', () => {
  it('lists changes, shows a diff, blocks a conflicting commit with code "conflict", and commits once resolved', async () => {
    const { data, repo } = await seeded();
    const { plan, slot } = await createPlan(data);
    const sandbox = slot('repo').sandbox_path;
    fs.writeFileSync(path.join(sandbox, 'src/app.ts'), 'export const a = 2;\n');
    fs.writeFileSync(path.join(sandbox, 'NEW.md'), 'new\n');
    fs.writeFileSync(path.join(repo, 'README.md'), '# changed in the original\n');
    fs.writeFileSync(path.join(sandbox, 'README.md'), '# changed in the sandbox\n');

    const changes = await runCli(data, ['--json', 'plans', 'changes', plan.plan_id, '--resource', 'local/app']);
    expect(changes.code).toBe(0);
    const [list] = changes.json<Array<{ changes: Array<{ path: string; kind: string; drift: string }> }>>();
    expect(list?.changes.map((c) => [c.path, c.kind, c.drift]).sort()).toEqual([
      ['NEW.md', 'added', 'clean'],
      ['README.md', 'modified', 'conflict'],
      ['src/app.ts', 'modified', 'clean'],
    ]);

    const diff = await runCli(data, ['plans', 'diff', plan.plan_id, '--resource', 'repo', '--path', 'src/app.ts']);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('-export const a = 1;');
    expect(diff.stdout).toContain('+export const a = 2;');

    const blocked = await runCli(data, ['--json', 'plans', 'commit', plan.plan_id, '--resource', 'repo']);
    expect(blocked.code).toBe(1);
    const { error } = blocked.json<{ error: { code: string; details: { paths: Array<{ path: string }> } } }>();
    expect(error.code).toBe('conflict');
    expect(error.details.paths.map((p) => p.path)).toEqual(['README.md']);
    expect(fs.readFileSync(path.join(repo, 'src/app.ts'), 'utf8')).toBe('export const a = 1;\n');

    const committed = await runCli(data, ['plans', 'commit', plan.plan_id, '--resource', 'repo', '--resolve', 'README.md=ours']);
    expect(committed.code, committed.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo, 'src/app.ts'), 'utf8')).toBe('export const a = 2;\n');
    expect(fs.readFileSync(path.join(repo, 'NEW.md'), 'utf8')).toBe('new\n');
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# changed in the original\n');
    expect(git(repo, 'log', '--oneline').trim().split('\n')).toHaveLength(1);

    const shown = await runCli(data, ['--json', 'plans', 'show', plan.plan_id]);
    expect(shown.json<{ status: string }>().status).toBe('partially_committed');

    const undone = await runCli(data, ['plans', 'undo', plan.plan_id, '--resource', 'repo']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo, 'src/app.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect(fs.existsSync(path.join(repo, 'NEW.md'))).toBe(false);
  });

  it.skipIf(process.platform === 'win32')('lists a FIFO that replaced a file as not committable, refuses a commit with it, and keeps the file with ours', async () => {
    const { data, repo } = await seeded();
    const { plan, slot } = await createPlan(data);
    const sandbox = slot('repo').sandbox_path;
    fs.rmSync(path.join(sandbox, 'README.md'));
    execFileSync('mkfifo', [path.join(sandbox, 'README.md')]);
    fs.writeFileSync(path.join(sandbox, 'src/app.ts'), 'export const a = 2;\n');

    const changes = await runCli(data, ['plans', 'changes', plan.plan_id, '--resource', 'repo']);
    expect(changes.code, changes.stderr).toBe(0);
    expect(changes.stdout).toMatch(/T\s+README\.md\s+NOT COMMITTABLE: the sandbox's FIFO is a special file, which Bindery does not copy or commit: remove it from the sandbox/);
    const refused = await runCli(data, ['plans', 'commit', plan.plan_id, '--resource', 'repo']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/1 path\(s\) are special files .*\n {2}- README\.md: .*FIFO.*\nRemove them from the sandbox/);
    const committed = await runCli(data, ['plans', 'commit', plan.plan_id, '--resource', 'repo', '--resolve', 'README.md=ours']);
    expect(committed.code, committed.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toBe('# app\n');
    expect(fs.readFileSync(path.join(repo, 'src/app.ts'), 'utf8')).toBe('export const a = 2;\n');
  });

  it('commits on the current branch with a message when asked', async () => {
    const { data, repo } = await seeded();
    const { plan, slot } = await createPlan(data);
    fs.writeFileSync(path.join(slot('repo').sandbox_path, 'src/app.ts'), 'export const a = 3;\n');
    const result = await runCli(data, ['plans', 'commit', plan.plan_id, '--resource', 'repo', '--git-commit', '-m', 'Bump a']);
    expect(result.code, result.stderr).toBe(0);
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Bump a');
    expect(git(repo, 'status', '--porcelain')).toBe('');
    const usage = await runCli(data, ['plans', 'commit', plan.plan_id, '--git-commit']);
    expect(usage.code).toBe(2);
  });

  it('asks which sandbox, naming each by resource name and the flag that picks one', async () => {
    const { data } = await seeded();
    const { plan } = await createPlan(data);
    const result = await runCli(data, ['plans', 'commit', plan.plan_id, '--path', 'src/app.ts']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/has 3 sandboxes: say which one, by resource name \(.*local\/app \(slots repo\).*\)\. Choose one with --resource <resource name>\.\n$/);
  });
});

describe('bindery plans discard (alias rollback) and trash', () => {
  it('asks for --yes when there are changes, then keeps them in the trash for restore', async () => {
    const { data } = await seeded();
    const { plan, slot } = await createPlan(data);
    fs.writeFileSync(path.join(slot('repo').sandbox_path, 'src/app.ts'), 'export const a = 9;\n');

    const refused = await runCli(data, ['plans', 'discard', plan.plan_id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--yes/);
    expect(refused.stderr).toMatch(/local\/app: 1 change\(s\) \(1 modified\)/);
    expect(fs.existsSync(slot('repo').sandbox_path)).toBe(true);

    // The alias the reference's rollback_all() suggests does the same.
    const discarded = await runCli(data, ['plans', 'rollback', plan.plan_id, '--yes']);
    expect(discarded.code, discarded.stderr).toBe(0);
    expect(fs.existsSync(slot('repo').sandbox_path)).toBe(false);
    expect((await runCli(data, ['--json', 'plans', 'show', plan.plan_id])).json<{ status: string }>().status).toBe('discarded');

    const trash = await runCli(data, ['--json', 'trash', 'list']);
    const entries = trash.json<Array<{ id: string; resource_name: string; counts: { modified: number } }>>();
    const entry = entries.find((e) => e.resource_name === 'local/app');
    expect(entry?.counts.modified).toBe(1);

    const restored = await runCli(data, ['trash', 'restore', entry!.id]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(fs.readFileSync(path.join(slot('repo').sandbox_path, 'src/app.ts'), 'utf8')).toBe('export const a = 9;\n');
    expect((await runCli(data, ['--json', 'plans', 'show', plan.plan_id])).json<{ status: string }>().status).toBe('ready');

    const purge = await runCli(data, ['trash', 'purge']);
    expect(purge.code).toBe(0);
  });
});

describe('bindery plans recover', () => {
  it('lists orphan folders under the sandboxes root without deleting them', async () => {
    const { data } = await seeded();
    const { plan } = await createPlan(data);
    const orphan = path.join(data, 'sandboxes', plan.plan_id, 'left-by-hand');
    fs.mkdirSync(orphan);
    const result = await runCli(data, ['plans', 'recover']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Orphan: ${orphan} is not a sandbox Bindery knows`);
    expect(fs.existsSync(orphan)).toBe(true);
    const json = await runCli(data, ['--json', 'plans', 'recover']);
    expect(json.json<{ orphans: string[]; missing: unknown[] }>()).toMatchObject({ orphans: [orphan], missing: [] });
  });

  it('shows the activity log of a plan', async () => {
    const { data } = await seeded();
    const { plan } = await createPlan(data);
    const result = await runCli(data, ['plans', 'activity', '--plan', plan.plan_id]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/plan\.created\s+\S+\s+Plan of mixed in demo created/);
    expect(result.stdout).toContain('sandbox.created');
  });

  it('keeps slot names as written in the JSON params', async () => {
    const { data } = await seeded();
    const { plan } = await createPlan(data);
    const shown = await runCli(data, ['--json', 'plans', 'show', plan.plan_id]);
    expect(shown.json<{ params: Record<string, string> }>().params).toEqual({ output: 'local/out' });
  });
});

describe('custom handlers through the CLI', () => {
  const HANDLER = `
export class StampHandler {
  async resolve({ resource, planId, slotName, sandboxManager, access }) {
    const sandbox = await sandboxManager.getOrCreateSandbox({
      planId, resourceId: resource.id, originalPath: resource.location, sandboxStrategy: 'copy_on_write', access,
    });
    const fs = await import('node:fs');
    fs.writeFileSync(sandbox.context.sandboxPath + '/STAMPED-BY-HANDLER', slotName);
    return { slotName, resourceId: resource.id, resourceType: resource.typeName, sandboxPath: sandbox.context.sandboxPath, access };
  }
}`;

  async function customSetup(handler: string) {
    const data = tempDir('bindery-cli-');
    fs.mkdirSync(path.join(data, 'handlers'));
    fs.writeFileSync(path.join(data, 'handlers', 'stamp.mjs'), HANDLER);
    const dir = tempDir();
    writeFiles(dir, { 'in.txt': 'in\n' });
    const toolFile = path.join(tempDir(), 'stamp.yaml');
    fs.writeFileSync(toolFile, 'resource_slots:\n  - name: stuff\n    resource_type: stamped\n    access: read_write\n');
    const ok = async (args: string[]) => expect((await runCli(data, args)).code, args.join(' ')).toBe(0);
    await ok(['types', 'add', 'stamped', '--handler', handler, '--strategy', 'copy_on_write']);
    await ok(['resources', 'add', 'local/stuff', '--type', 'stamped', '--location', dir]);
    await ok(['projects', 'add', 'demo']);
    await ok(['projects', 'link', 'demo', 'local/stuff']);
    await ok(['tools', 'import', toolFile]);
    return data;
  }

  it('provisions through a handler module in <data dir>/handlers', async () => {
    const data = await customSetup('stamp.mjs:StampHandler');
    const created = await runCli(data, ['--json', 'plans', 'create', 'stamp', '--project', 'demo']);
    expect(created.code, created.stderr).toBe(0);
    const [bound] = created.json<{ bound_resources: Array<BoundJson & { handler_failure: string | null }> }>().bound_resources;
    expect(bound?.handler_failure).toBeNull();
    expect(fs.readFileSync(path.join(bound!.sandbox_path, 'STAMPED-BY-HANDLER'), 'utf8')).toBe('stuff');
    expect(fs.readFileSync(path.join(bound!.sandbox_path, 'in.txt'), 'utf8')).toBe('in\n');
  });

  it('uses the default handler when the module cannot be loaded, and says so', async () => {
    const data = await customSetup('missing.mjs:Nope');
    const created = await runCli(data, ['plans', 'create', 'stamp', '--project', 'demo']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/local\/stuff: handler missing\.mjs:Nope failed to load: .*; default used/);
    const json = await runCli(data, ['--json', 'plans', 'list']);
    const planId = json.json<Array<{ plan_id: string }>>()[0]!.plan_id;
    const shown = await runCli(data, ['--json', 'plans', 'show', planId]);
    const [bound] = shown.json<{ bound_resources: Array<BoundJson & { handler_failure: string }> }>().bound_resources;
    expect(bound).toMatchObject({ strategy: 'copy_on_write', handler_failure: expect.stringContaining('default used') });
    expect(fs.existsSync(path.join(bound!.sandbox_path, 'STAMPED-BY-HANDLER'))).toBe(false);
  });
});
