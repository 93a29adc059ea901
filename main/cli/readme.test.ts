/** The README's CLI walk-through must keep working exactly as printed. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIT_ENV, tempDir } from '../testing/fixtures.ts';
import { main } from './main.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** `bindery <args> --help`, run in-process (help never opens the data directory). */
async function help(...args: string[]): Promise<string> {
  let out = '';
  const code = await main([...args, '--help'], { out: (text) => (out += text), err: () => {} });
  expect(code, `bindery ${args.join(' ')} --help`).toBe(0);
  return out;
}

/** The names under "Commands:" in a help text, without `help` itself. */
function commandNames(helpText: string): string[] {
  const section = helpText.slice(helpText.indexOf('Commands:')).split('\n\n')[0]!;
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((match) => match[1]!).filter((name) => name !== 'help');
}

/** The README's command table: each group with the commands (as printed, in backticks) of its row. */
function commandTable(): Map<string, string[]> {
  const rows = [...README.matchAll(/^\| `([a-z]+)` \| (.*) \|$/gm)];
  return new Map(rows.map((row) => [row[1]!, [...row[2]!.matchAll(/`([^`]+)`/g)].map((item) => item[1]!.replaceAll('\\|', '|'))]));
}

/** The walk-through's shell blocks (the resolution, then the plan), as one script. */
function walkThrough(): string {
  const start = README.indexOf('A walk-through you can paste');
  const blocks = [...README.slice(start).matchAll(/```sh\n([\s\S]*?)```/g)].slice(0, 2).map((match) => match[1]!);
  if (blocks.length < 2) throw new Error('README walk-through not found');
  return blocks.join('\n');
}

describe('README walk-through', () => {
  it('runs from a fresh data directory and binds the mixed tool', () => {
    const output = execFileSync('bash', ['-e', '-c', walkThrough()], {
      cwd: ROOT,
      encoding: 'utf8',
      // Its `mktemp -d` folders go in a temp folder the test removes.
      env: { ...GIT_ENV, BINDERY_HOME: '', TMPDIR: tempDir('bindery-readme-') },
      // Twenty-odd CLI processes; where the bundle is older than the sources each runs through tsx,
      // seconds apiece on a loaded machine. A hang, not a slow machine, should fail this.
      timeout: 600_000,
    });
    expect(output).toMatch(/repo\s+contextual\s+read_write\s+local\/app/);
    expect(output).toContain('"slot_name": "output"');
    expect(output).toMatch(/database\s+ok/);
    expect(output).toMatch(/A\s+notes\.txt\s+\+1 -0\s+clean/);
    expect(output).toContain('+made in the sandbox');
    expect(output).toMatch(/local\/app: wrote 1 file\(s\), deleted 0\.\nmade in the sandbox\n/);
    expect(output).toContain('Undone: 1 file(s) restored.');
    expect(output).toMatch(/Discarded the sandbox of local\/app; its changes are in the trash as \S+/);
  }, 600_000);
});

describe('README for users', () => {
  it('stays under 200 lines, with set-up, the walk-through and the commands before any performance figure', () => {
    expect(README.split('\n').length).toBeLessThan(200);
    const order = ['## Set up', 'npm start', 'npm test', 'A walk-through you can paste', '| group | commands |', '## Performance'].map((text) => README.indexOf(text));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('lists every command group and command the CLI has, with options the CLI accepts', async () => {
    const table = commandTable();
    expect([...table.keys()].sort()).toEqual(commandNames(await help()).sort());
    for (const [group, items] of table) {
      const subcommands = commandNames(await help(group));
      const listed = items.map((item) => item.split(' ')[0]!).filter((name) => name !== group);
      // Every subcommand is in the row (a group with none, like `resolve`, lists itself).
      expect(listed.sort(), group).toEqual([...subcommands].sort());
      for (const item of items) {
        const name = item.split(' ')[0]!;
        const options = item.match(/--[a-z][a-z-]*/g) ?? [];
        if (options.length === 0) continue;
        const text = name === group ? await help(group) : await help(group, name);
        for (const option of options) expect(text, `${group} ${item}`).toContain(option);
      }
    }
  });
});
