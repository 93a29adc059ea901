/** How `npm run dist` turns BINDERY_ELECTRON_DIST into electron-builder arguments. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

interface DistModule {
  builderArgs(userArgs: string[], env: Record<string, string | undefined>, projectRoot: string): string[];
}

// An untyped JavaScript module, loaded by a computed specifier so TypeScript does not ask for types.
const modulePath = './dist.js';
const load = async () => (await import(modulePath)) as DistModule;

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-dist-test-'));
  fs.mkdirSync(path.join(root, 'node_modules', 'electron'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'node_modules', 'electron', 'package.json'),
    JSON.stringify({ version: '45.5.0' }),
  );
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('builderArgs', () => {
  it('passes the arguments through untouched for a real build', async () => {
    const { builderArgs } = await load();
    expect(builderArgs(['--linux', 'AppImage'], {}, root)).toEqual(['--linux', 'AppImage']);
  });

  it('builds a stand-in Electron outside out/ and sends its package to release/stand-in', async () => {
    const { builderArgs } = await load();
    const args = builderArgs(['--linux', 'dir'], { BINDERY_ELECTRON_DIST: 'stand-in' }, root);
    const folder = path.join(root, 'node_modules', '.cache', 'bindery-stand-in-electron');
    expect(args).toEqual([
      '--linux',
      'dir',
      '--config.directories.output=release/stand-in',
      `--config.electronDist=${folder}`,
      '--config.electronVersion=45.5.0',
    ]);
    expect(fs.statSync(path.join(folder, 'electron')).mode & 0o111).not.toBe(0);
  });

  it('keeps an output folder the caller chose', async () => {
    const { builderArgs } = await load();
    const args = builderArgs(
      ['--linux', 'dir', '--config.directories.output=/tmp/x'],
      { BINDERY_ELECTRON_DIST: 'stand-in' },
      root,
    );
    expect(args.filter((arg) => arg.includes('directories.output'))).toEqual([
      '--config.directories.output=/tmp/x',
    ]);
  });

  it('refuses an Electron folder that does not exist, saying what to do', async () => {
    const { builderArgs } = await load();
    expect(() => builderArgs([], { BINDERY_ELECTRON_DIST: 'nowhere' }, root)).toThrow(
      /does not exist.*stand-in/,
    );
  });
});
