/** main(): which command groups a run loads, and `--version`. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { runCli } from '../testing/cli-process.ts';
import { commandsFor } from './main.ts';
import { binderyVersion } from './version.ts';

const VERSION = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version;

describe('commandsFor', () => {
  it('loads only the group a command names', () => {
    expect(commandsFor(['types', 'list'])).toEqual(['types']);
    expect(commandsFor(['--json', 'plans', 'changes', 'p1'])).toEqual(['plans']);
    expect(commandsFor(['types', '--help'])).toEqual(['types']);
  });

  it('loads none for --version and every group for help, no command or an unknown one', () => {
    expect(commandsFor(['--version'])).toEqual([]);
    expect(commandsFor(['-V'])).toEqual([]);
    const all = commandsFor([]);
    expect(all).toEqual(expect.arrayContaining(['types', 'resources', 'projects', 'tools', 'resolve', 'plans', 'trash', 'serve', 'doctor']));
    expect(commandsFor(['--help'])).toEqual(all);
    expect(commandsFor(['help', 'types'])).toEqual(all);
    expect(commandsFor(['typo'])).toEqual(all);
    // An inherited name is not a command.
    expect(commandsFor(['constructor'])).toEqual(all);
  });
});

describe('bindery --version', () => {
  it('prints the package version and exits 0, from the sources as from the bundle', async () => {
    expect(binderyVersion()).toBe(VERSION);
    for (const flag of ['--version', '-V']) {
      const result = await runCli(tempDir(), [flag]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${VERSION}\n`);
    }
  });

  it('still lists every command in the help', async () => {
    const result = await runCli(tempDir(), ['--help']);
    expect(result.code).toBe(0);
    for (const name of ['types', 'plans', 'serve', 'doctor']) expect(result.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect(result.stdout).toContain('-V, --version');
  });
});
