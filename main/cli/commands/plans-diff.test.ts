/** `bindery plans diff` as a patch git applies: renames (with and without an edit), additions, deletions, edits. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { cliPlan, runCli } from '../../testing/cli-process.ts';

const TOOL = `name: editor
resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
`;

const lines = (word: string) => Array.from({ length: 30 }, (_, i) => `${word} line ${i + 1}\n`).join('');

describe('bindery plans diff', () => {
  it('prints a patch that git applies to the original to give the sandbox, renames included', async () => {
    const { data, repo, planId, sandboxPath: sandbox } = await cliPlan('editor', TOOL, {
      'moved.txt': lines('moved'),
      'b-old.txt': lines('bee'),
      'moved-edited.txt': lines('edited'),
      'gone.txt': 'bye\n',
      'kept.txt': lines('kept'),
    });
    fs.mkdirSync(path.join(sandbox, 'new dir'));
    fs.renameSync(path.join(sandbox, 'moved.txt'), path.join(sandbox, 'new dir', 'moved.txt'));
    fs.renameSync(path.join(sandbox, 'moved-edited.txt'), path.join(sandbox, 'renamed.txt'));
    // A rename with no edit right before a plain patch (gone.txt's): git would read its ---/+++ as the rename's.
    fs.renameSync(path.join(sandbox, 'b-old.txt'), path.join(sandbox, 'b-new.txt'));
    fs.appendFileSync(path.join(sandbox, 'renamed.txt'), 'one more\n');
    fs.rmSync(path.join(sandbox, 'gone.txt'));
    fs.writeFileSync(path.join(sandbox, 'kept.txt'), lines('kept').replace('kept line 7\n', 'seventh\n'));
    fs.writeFileSync(path.join(sandbox, 'added.txt'), 'hello\n');

    const printed = await runCli(data, ['plans', 'diff', planId]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('diff --git a/moved-edited.txt b/renamed.txt\nsimilarity index');
    expect(printed.stdout).toContain('rename from moved.txt\nrename to new dir/moved.txt\n');

    // Applied to a fresh checkout of the original, the patch gives exactly the sandbox's files.
    const clone = path.join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', repo, clone]);
    const patchFile = path.join(tempDir(), 'plan.patch');
    fs.writeFileSync(patchFile, printed.stdout);
    execFileSync('git', ['apply', patchFile], { cwd: clone });
    for (const file of ['new dir/moved.txt', 'renamed.txt', 'b-new.txt', 'kept.txt', 'added.txt']) {
      expect(fs.readFileSync(path.join(clone, file), 'utf8'), file).toBe(fs.readFileSync(path.join(sandbox, file), 'utf8'));
    }
    for (const file of ['moved.txt', 'moved-edited.txt', 'b-old.txt', 'gone.txt']) expect(fs.existsSync(path.join(clone, file)), file).toBe(false);

    // --json is written a file at a time, as the same bytes as the whole array's pretty JSON.
    const json = await runCli(data, ['--json', 'plans', 'diff', planId]);
    const parsed = JSON.parse(json.stdout) as Array<{ path: string; hunks?: Array<{ id: number }> }>;
    expect(json.stdout).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
    expect(parsed.map((diff) => diff.path)).toContain('kept.txt');
    expect(parsed.find((diff) => diff.path === 'kept.txt')?.hunks?.map((hunk) => hunk.id)).toEqual([1]);
  });
});
