/** The `bindery` CLI end to end, in-process, against temp data directories and real folders. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo, tempDir } from '../testing/fixtures.ts';
import { runCli } from '../testing/cli-process.ts';
import { extractGlobals } from './main.ts';

const MIXED = fs.readFileSync(path.join(import.meta.dirname, '../testing/reference/mixed.yaml'), 'utf8');

async function seeded() {
  const data = tempDir('bindery-cli-');
  const repo = gitRepo();
  const cfg = tempDir();
  expect((await runCli(data, ['resources', 'add', 'local/app', '--type', 'git-checkout', '--location', repo])).code).toBe(0);
  expect((await runCli(data, ['resources', 'add', 'local/shared-config', '--type', 'fs-directory', '--location', cfg])).code).toBe(0);
  expect((await runCli(data, ['projects', 'add', 'demo'])).code).toBe(0);
  expect((await runCli(data, ['projects', 'link', 'demo', 'local/app'])).code).toBe(0);
  return { data, repo, cfg };
}

describe('global flags', () => {
  it('takes --json and --data-dir anywhere before --', () => {
    expect(extractGlobals(['types', 'list', '--json', '--data-dir=/x'])).toEqual({ json: true, dataDir: '/x', rest: ['types', 'list'] });
    expect(extractGlobals(['--data-dir', '/y', 'a', '--', '--json'])).toEqual({ json: false, dataDir: '/y', rest: ['a', '--', '--json'] });
  });
});

describe('exit codes and errors', () => {
  it('exits 2 on usage errors, with a one-line message and no stack', async () => {
    const data = tempDir();
    const unknown = await runCli(data, ['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^bindery: unknown command 'frobnicate'. See "bindery --help".\n$/);
    const missing = await runCli(data, ['resources', 'add', 'local/x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--type <type>' not specified");
    const json = await runCli(data, ['--json', 'resources', 'add', 'local/x']);
    expect(json.json<{ error: { code: string } }>().error.code).toBe('usage');
  });

  it('exits 1 with the error object in JSON mode', async () => {
    const data = tempDir();
    const result = await runCli(data, ['--json', 'resources', 'add', 'local/x', '--type', 'git-checkout', '--location', tempDir()]);
    expect(result.code).toBe(1);
    const { error } = result.json<{ error: { code: string; message: string; details: { field: string } } }>();
    expect(error.code).toBe('validation_error');
    expect(error.message).toMatch(/not a git work tree, or use type fs-directory/);
    expect(error.details.field).toBe('location');
  });

  it('prints help and exits 0', async () => {
    const result = await runCli(tempDir(), ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: bindery');
  });
});

describe('registry commands', () => {
  it('lists types with reference field names', async () => {
    const result = await runCli(tempDir(), ['--json', 'types', 'list']);
    const types = result.json<Array<Record<string, unknown>>>();
    expect(types.find((t) => t.name === 'fs-directory')).toMatchObject({ parent_types: ['git-checkout'], sandbox_strategy: 'copy_on_write', built_in: true });
  });

  it('adds, updates and removes a type, refusing a cycle', async () => {
    const data = tempDir();
    expect((await runCli(data, ['types', 'add', 'docs-dir', '--parent-types', 'fs-directory', '--strategy', 'copy_on_write'])).code).toBe(0);
    const cycle = await runCli(data, ['types', 'update', 'git-checkout', '--parent-types', 'docs-dir']);
    expect([cycle.code, cycle.stderr.trim()]).toEqual([1, 'bindery: Parent types of "git-checkout" would make a cycle: git-checkout -> docs-dir -> fs-directory -> git-checkout. Remove one of those parent types.']);
    expect((await runCli(data, ['types', 'update', 'docs-dir', '--strategy', 'sideways'])).code).toBe(2);
    expect((await runCli(data, ['types', 'remove', 'docs-dir'])).code).toBe(0);
  });

  it('registers, shows and lists resources as JSON with resource_id and resource_type', async () => {
    const { data, repo } = await seeded();
    const shown = (await runCli(data, ['--json', 'resources', 'show', 'local/app'])).json<Record<string, unknown>>();
    expect(shown).toMatchObject({ name: 'local/app', resource_type: 'git-checkout', location: repo, projects: ['demo'] });
    expect(shown.resource_id).toMatch(/^[0-9A-Z]{26}$/);
    const list = await runCli(data, ['resources', 'list']);
    expect(list.stdout).toMatch(/^NAME\s+TYPE\s+STRATEGY\s+PROJECTS\s+LOCATION\nlocal\/app\s+git-checkout\s+demo/);
  });

  it('warns when a folder is registered again, naming the other resource (issue 22)', async () => {
    const { data, repo } = await seeded();
    const again = await runCli(data, ['resources', 'add', 'local/app-files', '--type', 'fs-directory', '--location', repo]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('Warning: This folder is already registered as "local/app"');
    const json = await runCli(data, ['--json', 'resources', 'add', 'other/app', '--type', 'fs-directory', '--location', repo]);
    expect(json.json<{ warning: string }>().warning).toContain('"local/app" and "local/app-files"');
    const fresh = await runCli(data, ['--json', 'resources', 'add', 'local/else', '--type', 'fs-directory', '--location', tempDir()]);
    expect([fresh.stderr, 'warning' in fresh.json<object>()]).toEqual(['', false]);
  });

  it('guards removal and names dependents when forced', async () => {
    const { data } = await seeded();
    const refused = await runCli(data, ['resources', 'remove', 'local/app']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/used by projects demo.*--force/);
    const forced = await runCli(data, ['--json', 'resources', 'remove', 'local/app', '--force']);
    expect(forced.json<{ unlinked_from: string[] }>().unlinked_from).toEqual(['demo']);
  });

  it('links with an alias and shows it', async () => {
    const { data } = await seeded();
    await runCli(data, ['projects', 'link', 'demo', 'local/shared-config', '--alias', 'config']);
    const shown = (await runCli(data, ['--json', 'projects', 'show', 'demo'])).json<{ links: Array<{ alias: string | null; resource: { name: string } }> }>();
    expect(shown.links.map((l) => [l.resource.name, l.alias])).toEqual([
      ['local/app', null],
      ['local/shared-config', 'config'],
    ]);
  });
});

describe('tools', () => {
  it('imports the reference mixed example from stdin, exports it back unchanged in meaning', async () => {
    const { data } = await seeded();
    const imported = await runCli(data, ['--json', 'tools', 'import', '-', '--name', 'mixed'], MIXED);
    expect(imported.code).toBe(0);
    expect(imported.json<Array<{ resource_slots: Array<{ binding: string }> }>>()[0]?.resource_slots.map((s) => s.binding)).toEqual([
      'contextual',
      'static',
      'parameter',
    ]);
    const exported = await runCli(data, ['tools', 'export', 'mixed']);
    const file = path.join(tempDir(), 'again.yaml');
    fs.writeFileSync(file, exported.stdout);
    expect((await runCli(data, ['tools', 'import', file, '--replace'])).code).toBe(0);
    expect((await runCli(data, ['tools', 'export', 'mixed'])).stdout).toBe(exported.stdout);
  });

  it('reports a bad file with file, line and field, and a missing file clearly', async () => {
    const data = tempDir();
    const file = path.join(tempDir(), 'bad.yaml');
    fs.writeFileSync(file, 'name: bad\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    binding: sometimes\n');
    const bad = await runCli(data, ['tools', 'import', file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${file}:5 resource_slots.0.binding: binding must be one of contextual, static, parameter`);
    const missing = await runCli(data, ['tools', 'import', path.join(data, 'nope.yaml')]);
    expect(missing.stderr).toMatch(/does not exist: give the path of a YAML or JSON file/);
  });
});

describe('resolve', () => {
  it('prints a table, explains with --explain, and JSON with reference names', async () => {
    const { data } = await seeded();
    await runCli(data, ['tools', 'import', '-', '--name', 'mixed'], MIXED);
    const human = await runCli(data, ['resolve', 'mixed', '--project', 'demo', '--explain']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/repo\s+contextual\s+read_write\s+local\/app\s+git-checkout/);
    expect(human.stdout).toMatch(/output\s+parameter\s+write_only\s+\(deferred\)/);
    expect(human.stdout).toContain('* local/app: exact: type git-checkout');
    const json = (await runCli(data, ['--json', 'resolve', 'mixed', '--project', 'demo', '--param', 'output=local/shared-config'])).json<
      Array<Record<string, unknown>>
    >();
    expect(Object.keys(json[0] as object)).toEqual(expect.arrayContaining(['slot_name', 'binding_mode', 'resource_id', 'resource_type', 'access', 'deferred', 'explanation']));
    expect(json[2]).toMatchObject({ slot_name: 'output', deferred: false, resource_type: 'fs-directory' });
  });

  it('exits 1 with validation_error and per-slot details when a slot cannot bind', async () => {
    const { data } = await seeded();
    await runCli(data, ['tools', 'import', '-', '--name', 'mixed'], MIXED);
    await runCli(data, ['projects', 'unlink', 'demo', 'local/app']);
    const json = await runCli(data, ['--json', 'resolve', 'mixed', '--project', 'demo']);
    expect(json.code).toBe(1);
    const { error } = json.json<{ error: { code: string; details: { slots: Array<{ slot_name: string; fix: string }> } } }>();
    expect(error.code).toBe('validation_error');
    expect(error.details.slots).toEqual([{ slot_name: 'repo', error: expect.any(String), fix: 'Link a resource of type git-checkout to project "demo".' }]);
    const human = await runCli(data, ['resolve', 'mixed', '--project', 'demo']);
    expect(human.code).toBe(1);
    expect(human.stderr).toContain('fix: Link a resource of type git-checkout');
    // The resolver names the action; the CLI adds its command.
    expect(human.stderr).toContain('Link one with "bindery projects link demo <resource>".');
    expect((await runCli(data, ['resolve', 'mixed', '--project', 'demo', '--param', 'oops'])).code).toBe(2);
  });
});

describe('doctor', () => {
  it('checks git, the data directory and the database', async () => {
    const data = tempDir();
    await runCli(data, ['types', 'list']);
    const result = await runCli(data, ['--json', 'doctor']);
    expect(result.code).toBe(0);
    const report = result.json<{ ok: boolean; checks: Array<{ name: string; ok: boolean }> }>();
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([
      ['git', true],
      ['data directory', true],
      ['database', true],
      ['interrupted work', true],
      ['disk use', true],
    ]);
  });

  it('fails on a database from the future', async () => {
    const data = tempDir();
    await runCli(data, ['types', 'list']);
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(path.join(data, 'bindery.db'));
    db.pragma('user_version = 999');
    db.close();
    const result = await runCli(data, ['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/database\s+FAIL\s+.*newer than this Bindery/);
    const refused = await runCli(data, ['types', 'list']);
    expect(refused.stderr).toMatch(/written by a newer Bindery/);
  });
});
