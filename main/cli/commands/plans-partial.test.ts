/** `bindery plans diff` hunk ids and `plans commit --hunks/--lines` end to end through the CLI, on a real repository. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { cliPlan, runCli } from '../../testing/cli-process.ts';
import { parseSelections } from './plans-selection.ts';

const TOOL = `name: editor
resource_slots:
  - name: repo
    resource_type: git-checkout
    access: read_write
`;

const text = (edit: Record<number, string> = {}) => Array.from({ length: 40 }, (_, i) => `${edit[i + 1] ?? `line ${i + 1}`}\n`).join('');
const EDITS = { 2: 'two', 12: 'twelve', 22: 'twenty-two', 32: 'thirty-two' };

describe('bindery plans commit --hunks / --lines', () => {
  it('prints hunk ids where git apply ignores them, and commits chosen hunks, then chosen lines', async () => {
    const { data, repo, planId, sandboxPath: sandbox } = await cliPlan('editor', TOOL, { 'f.txt': text() });
    const plan = { plan_id: planId };
    fs.writeFileSync(path.join(sandbox, 'f.txt'), text(EDITS));

    const human = await runCli(data, ['plans', 'diff', plan.plan_id]);
    expect(human.stdout).toContain('@@ -9,7 +9,7 @@ hunk 2\n line 9\n line 10\n line 11\n-line 12\n+twelve\n');
    // The printed patch stays a valid one: git applies it to the original as it is.
    const patchFile = path.join(tempDir(), 'f.patch');
    fs.writeFileSync(patchFile, human.stdout);
    execFileSync('git', ['apply', '--check', patchFile], { cwd: repo });

    const json = (await runCli(data, ['--json', 'plans', 'diff', plan.plan_id])).json<Array<{ path: string; hunks: Array<{ id: number; header: string; lines: Array<{ kind: string; old_no: number | null; new_no: number | null; text: string }> }> }>>();
    expect(json[0]!.hunks.map((h) => [h.id, h.header])).toEqual([
      [1, '@@ -1,5 +1,5 @@'],
      [2, '@@ -9,7 +9,7 @@'],
      [3, '@@ -19,7 +19,7 @@'],
      [4, '@@ -29,7 +29,7 @@'],
    ]);
    expect(json[0]!.hunks[1]!.lines[3]).toEqual({ kind: 'del', old_no: 12, new_no: null, text: 'line 12', eol: '\n' });

    const noPath = await runCli(data, ['plans', 'commit', plan.plan_id, '--hunks', '1']);
    expect(noPath.code).toBe(2);
    expect(noPath.stderr).toContain('--hunks applies to one file: give exactly one --path');
    const badHunk = await runCli(data, ['plans', 'commit', plan.plan_id, '--path', 'f.txt', '--hunks', '7']);
    expect(badHunk.stderr).toContain("f.txt: There is no hunk 7: this file's diff has 4 hunks, numbered 1 to 4.");

    const first = await runCli(data, ['plans', 'commit', plan.plan_id, '--path', 'f.txt', '--hunks', '1,3']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('local/app: wrote 1 file(s), deleted 0. Wrote only the chosen changes of f.txt; the rest stays in the sandbox. 1 change(s) stay pending');
    expect(fs.readFileSync(path.join(repo, 'f.txt'), 'utf8')).toBe(text({ 2: 'two', 22: 'twenty-two' }));
    // What is pending now is numbered afresh: hunk 2 is the old hunk 4 (line 32).
    expect((await runCli(data, ['plans', 'diff', plan.plan_id])).stdout).toContain('@@ -29,7 +29,7 @@ hunk 2\n');
    expect((await runCli(data, ['plans', 'changes', plan.plan_id])).stdout).toMatch(/M\s+f\.txt\s+\+2 -2\s+clean/);

    const second = await runCli(data, ['plans', 'commit', plan.plan_id, '--lines', 'f.txt:12', '--lines', 'f.txt:32']);
    expect(second.code, second.stderr).toBe(0);
    expect(fs.readFileSync(path.join(repo, 'f.txt'), 'utf8')).toBe(text(EDITS));
    // Nothing is pending: the change reads as applied, as after a whole-file commit.
    expect((await runCli(data, ['plans', 'changes', plan.plan_id])).stdout).toMatch(/M\s+f\.txt\s+\+4 -4\s+applied/);
  }, 120_000);

  it('commits the files it names, whole or in part, and no other', () => {
    expect(parseSelections(undefined, undefined, undefined)).toEqual({ paths: undefined, selections: undefined });
    expect(parseSelections(['a.txt', 'b.txt'], undefined, ['c.txt:3-4,+9', 'a.txt:1'])).toEqual({
      paths: ['a.txt', 'b.txt', 'c.txt'],
      selections: {
        'c.txt': { lines: [{ side: 'both', from: 3, to: 4 }, { side: 'new', from: 9, to: 9 }] },
        'a.txt': { lines: [{ side: 'both', from: 1, to: 1 }] },
      },
    });
    expect(parseSelections(['a.txt'], '2-3', ['a.txt:-5'])).toEqual({ paths: ['a.txt'], selections: { 'a.txt': { hunks: [2, 3], lines: [{ side: 'old', from: 5, to: 5 }] } } });
    expect(() => parseSelections(['a.txt', 'b.txt'], '1', undefined)).toThrow(/--hunks applies to one file/);
    expect(() => parseSelections(['src/'], '1', undefined)).toThrow(/a file, not a folder/);
  });
});
