/**
 * The services name the action in the app's words and carry the choice in `details.hints`; the
 * CLI alone adds its flag. Real registry, real repositories, the CLI through main().
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BinderyError } from '../../shared/errors.ts';
import { errorHints, type ErrorHint } from '../../shared/error-hints.ts';
import { gitRepo, tempDir } from '../testing/fixtures.ts';
import { runCli } from '../testing/cli-process.ts';
import { freshBindery } from '../testing/registry.ts';
import { cliHint, withCliHint } from './hints.ts';

const CLI_SYNTAX = /bindery [a-z]|--[a-z]/;

/** The error a call throws (or rejects with). */
async function caught(call: () => unknown): Promise<BinderyError> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(BinderyError);
    return error as BinderyError;
  }
  throw new Error('expected a refusal');
}

/** The app's words only, and the actions the hosts may spell. */
function expectAppWords(error: BinderyError, actions: string[]): void {
  expect(error.message).not.toMatch(CLI_SYNTAX);
  expect(errorHints(error.details).map((h) => h.action)).toEqual(actions);
}

const EDIT_TOOL = 'name: edit\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n    binding: contextual\n';

describe('service errors', () => {
  it('name the action, not a flag, and carry the choice as hints', async () => {
    const bindery = freshBindery();
    try {
      const { registry, plans } = bindery;
      const cfg = await registry.addResource({ name: 'local/config', typeName: 'fs-directory', location: tempDir() });
      registry.addProject({ name: 'demo' });
      registry.link('demo', cfg.name);
      expectAppWords(await caught(() => registry.removeResource(cfg.name)), ['remove-anyway']);
      expectAppWords(await caught(() => registry.showResource('local/none')), ['list-resources']);
      expectAppWords(await caught(() => registry.showProject('none')), ['list-projects']);
      expectAppWords(await caught(() => registry.showTool('none')), ['import-tool']);
      expectAppWords(await caught(() => plans.findPlan('none')), ['list-plans']);

      await registry.importTools(EDIT_TOOL, 'edit.yaml');
      const file = `${EDIT_TOOL}  - name: cfg\n    resource_type: mystery\n  - name: more\n    resource_type: fs-directory\n    binding: static\n    static_resource: local/gone\n`;
      const refused = await caught(() => registry.importTools(file, 'edit.yaml'));
      expectAppWords(refused, ['replace-tools', 'add-type', 'add-resource']);
      expect(refused.message).toContain('Tool "edit" is already registered: import it with Replace to update it.');
    } finally {
      bindery.close();
    }
  });
});

describe('the CLI', () => {
  it('adds its flag to a refused commit, and the engine message stays in the app words', async () => {
    const bindery = freshBindery();
    const repo = gitRepo({ 'README.md': '# app\n' });
    let planId: string;
    try {
      const { registry, plans } = bindery;
      await registry.addResource({ name: 'local/app', typeName: 'git-checkout', location: repo });
      registry.addProject({ name: 'demo' });
      registry.link('demo', 'local/app');
      await registry.importTools(EDIT_TOOL, 'edit.yaml');
      const started = await plans.createPlan('edit', 'demo');
      planId = started.planId;
      const sandbox = (await started.provisioned).sandboxes[0]!.path;
      fs.writeFileSync(path.join(repo, 'README.md'), '# changed in the original\n');
      fs.writeFileSync(path.join(sandbox, 'README.md'), '# changed in the sandbox\n');
      const conflict = await caught(() => plans.commit(planId));
      expect(conflict.message).toMatch(/Choose for each: Keep original \(ours\), Take sandbox \(theirs\), or Merge \(merge\)\.$/);
      expectAppWords(conflict, ['resolve']);
      const unknown = await caught(() => plans.commit(planId, { paths: ['nowhere.txt'] }));
      expectAppWords(unknown, ['list-changes']);
    } finally {
      bindery.close();
    }

    const blocked = await runCli(bindery.dataDir, ['plans', 'commit', planId]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(/or Merge \(merge\)\.\nSettle each with --resolve <path>=ours\|theirs\|merge \(e\.g\. --resolve README\.md=ours\)\.\n$/);
    const unknown = await runCli(bindery.dataDir, ['plans', 'commit', planId, '--path', 'nowhere.txt']);
    expect(unknown.stderr).toContain(`look at the list of the plan's changes. List them with "bindery plans changes ${planId}".`);
    const json = await runCli(bindery.dataDir, ['--json', 'plans', 'commit', planId]);
    expect(json.json<{ error: { details: { hints: ErrorHint[] } } }>().error.details.hints).toEqual([
      { action: 'resolve', paths: ['README.md'], choices: ['ours', 'theirs', 'merge'] },
    ]);
  });

  it('adds --force, --replace and its list commands to registry refusals', async () => {
    const data = tempDir('bindery-cli-');
    expect((await runCli(data, ['resources', 'add', 'local/app', '--type', 'fs-directory', '--location', tempDir()])).code).toBe(0);
    expect((await runCli(data, ['projects', 'add', 'demo'])).code).toBe(0);
    expect((await runCli(data, ['projects', 'link', 'demo', 'local/app'])).code).toBe(0);
    const removal = await runCli(data, ['resources', 'remove', 'local/app']);
    expect(removal.stderr).toMatch(/or remove it anyway \(the links go.*\)\. Remove it anyway with --force\.\n$/);
    const tool = path.join(tempDir(), 'edit.yaml');
    fs.writeFileSync(tool, EDIT_TOOL);
    expect((await runCli(data, ['tools', 'import', tool])).code).toBe(0);
    const again = await runCli(data, ['tools', 'import', tool]);
    expect(again.stderr).toMatch(/already registered: import it with Replace to update it\.\nImport with --replace to update registered tools\.\n$/);
    expect((await runCli(data, ['plans', 'show', 'nope'])).stderr).toContain('See the list of plans. See "bindery plans list".');
    expect((await runCli(data, ['trash', 'restore', 'nope'])).stderr).toContain('see the list of the trash. See "bindery trash list".');
  });
});

describe('cliHint', () => {
  it('spells every action on the command line, quoting what a shell would split', () => {
    const all: ErrorHint[] = [
      { action: 'resolve', paths: ['my notes.md'], choices: ['ours'] },
      { action: 'discard-anyway' },
      { action: 'remove-anyway' },
      { action: 'replace-tools' },
      { action: 'commit-without-git' },
      { action: 'list-changes' },
      { action: 'link-resource', project: 'demo', type: 'git-checkout' },
      { action: 'set-alias', project: 'demo', alias: 'repo' },
      { action: 'list-plans' },
      { action: 'list-projects' },
      { action: 'list-resources' },
      { action: 'list-trash' },
      { action: 'import-tool' },
      { action: 'give-params', slots: ['target', 'output'] },
      { action: 'add-type', type: 'notes' },
      { action: 'add-resource', name: 'local/cfg', type: 'fs-directory' },
      { action: 'update-resource' },
      { action: 'move-data-dir' },
    ];
    const lines = all.map(cliHint);
    for (const line of lines) expect(line).toMatch(CLI_SYNTAX);
    expect(lines[0]).toBe("Settle each with --resolve <path>=ours (e.g. --resolve 'my notes.md'=ours).");
    expect(lines[5]).toBe('List them with "bindery plans changes <plan>".');
  });

  it('leaves errors without hints alone, and an action it does not know out', () => {
    const plain = new BinderyError('not_found', 'Nothing here.', { id: 'x' });
    expect(withCliHint(plain)).toBe(plain);
    const newer = new BinderyError('conflict', 'Do the new thing.', { hints: [{ action: 'from-the-future' }, { action: 'list-trash' }] });
    expect((withCliHint(newer) as Error).message).toBe('Do the new thing. See "bindery trash list".');
  });
});
