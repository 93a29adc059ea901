import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findElectronBinary, platformExecutable } from './electron-binary.js';
import { isStale, newestMtime } from './start.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function temp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-start-'));
  dirs.push(dir);
  return dir;
}

describe('findElectronBinary', () => {
  it('explains a missing package, a missing binary and a wrong override', () => {
    const root = temp();
    expect(findElectronBinary({ root, env: {} }).reason).toMatch(/not installed/);
    fs.mkdirSync(path.join(root, 'node_modules', 'electron'), { recursive: true });
    expect(findElectronBinary({ root, env: {}, platform: 'linux' }).reason).toMatch(/without its binary/);
    expect(findElectronBinary({ root, env: { ELECTRON_OVERRIDE_DIST_PATH: path.join(root, 'nope') } }).reason).toMatch(/ELECTRON_OVERRIDE_DIST_PATH/);
  });

  it('finds the dist binary named by path.txt, and the override first', () => {
    const root = temp();
    const pkg = path.join(root, 'node_modules', 'electron');
    fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'path.txt'), 'electron');
    fs.writeFileSync(path.join(pkg, 'dist', 'electron'), '\x7fELF');
    expect(findElectronBinary({ root, env: {} }).path).toBe(path.join(pkg, 'dist', 'electron'));
    const override = path.join(root, 'custom');
    fs.mkdirSync(override);
    fs.writeFileSync(path.join(override, 'electron'), '\x7fELF');
    expect(findElectronBinary({ root, env: { ELECTRON_OVERRIDE_DIST_PATH: override } }).path).toBe(path.join(override, 'electron'));
  });

  it('never takes the packaging stand-in for Electron', () => {
    const root = temp();
    fs.writeFileSync(path.join(root, 'electron'), '#!/bin/sh\n# bindery-stand-in-electron: not Electron.\nexit 1\n');
    expect(findElectronBinary({ root, env: { ELECTRON_OVERRIDE_DIST_PATH: root }, platform: 'linux' }).reason).toMatch(/stand-in/);
  });

  it('knows each platform executable', () => {
    expect([platformExecutable('linux'), platformExecutable('win32'), platformExecutable('darwin')]).toEqual(['electron', 'electron.exe', 'Electron.app/Contents/MacOS/Electron']);
  });
});

describe('start: staleness', () => {
  it('rebuilds when an output is missing or older than a source, ignoring tests', () => {
    const root = temp();
    const source = path.join(root, 'src', 'a.ts');
    const test = path.join(root, 'src', 'a.test.ts');
    const output = path.join(root, 'out.js');
    fs.mkdirSync(path.dirname(source));
    fs.writeFileSync(source, '');
    fs.writeFileSync(test, '');
    fs.writeFileSync(output, '');
    fs.utimesSync(source, 1000, 1000);
    fs.utimesSync(output, 2000, 2000);
    fs.utimesSync(test, 3000, 3000);
    const newest = newestMtime([path.join(root, 'src')]);
    expect(newest).toBe(1_000_000);
    expect(isStale([output], newest)).toBe(false);
    expect(isStale([output, path.join(root, 'missing.js')], newest)).toBe(true);
    fs.utimesSync(source, 2500, 2500);
    expect(isStale([output], newestMtime([path.join(root, 'src')]))).toBe(true);
  });
});
