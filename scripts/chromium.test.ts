/** The e2e run's browser search (scripts/chromium.js): its order, each platform's places, the install and the one-line failure. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureChromium, findChromium, isFile, NO_CHROMIUM, systemBrowserPaths } from './chromium.js';

const OWN = '/home/dev/.cache/ms-playwright/chromium-1/chrome-linux64/chrome';
const present = (...files: string[]) => (file: string) => files.includes(file);
const linux = (files: string[], env: NodeJS.ProcessEnv = { PATH: '/usr/local/bin:/usr/bin' }) =>
  findChromium({ env, platform: 'linux', exists: present(...files), playwrightPath: () => OWN });

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-chromium-'));
  temps.push(dir);
  return dir;
}

describe('findChromium', () => {
  it('takes BINDERY_CHROMIUM before any other browser', () => {
    expect(linux(['/opt/mine/chrome', '/usr/bin/chromium', OWN], { BINDERY_CHROMIUM: '/opt/mine/chrome' })).toEqual({ path: '/opt/mine/chrome', source: 'BINDERY_CHROMIUM' });
  });

  it('refuses a BINDERY_CHROMIUM that does not exist rather than silently using another browser', () => {
    expect(() => linux(['/usr/bin/chromium'], { BINDERY_CHROMIUM: '/nope/chrome' })).toThrow('BINDERY_CHROMIUM is /nope/chrome, which does not exist');
  });

  it('prefers a system Chromium, then Chrome, to Playwright\'s download', () => {
    expect(linux(['/usr/bin/chromium', '/usr/bin/google-chrome', OWN])).toEqual({ path: '/usr/bin/chromium', source: 'system' });
    expect(linux(['/usr/bin/chromium-browser', OWN])?.path).toBe('/usr/bin/chromium-browser');
    expect(linux(['/usr/bin/google-chrome', OWN])?.path).toBe('/usr/bin/google-chrome');
    expect(linux(['/snap/bin/chromium'])?.path).toBe('/snap/bin/chromium');
    expect(linux(['/usr/local/bin/google-chrome-stable'])?.path).toBe('/usr/local/bin/google-chrome-stable');
  });

  it('falls back to Playwright\'s Chromium only when it was downloaded, else finds nothing', () => {
    expect(linux([OWN])).toEqual({ path: OWN, source: 'playwright' });
    expect(linux([])).toBeNull();
    expect(findChromium({ env: {}, platform: 'linux', exists: () => false, playwrightPath: () => null })).toBeNull();
  });

  it('looks in the standard places on macOS and Windows', () => {
    const mac = findChromium({ env: { HOME: '/Users/me' }, platform: 'darwin', exists: present('/Users/me/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'), playwrightPath: () => null });
    expect(mac?.path).toBe('/Users/me/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
    expect(systemBrowserPaths('darwin', { HOME: '/Users/me' })[0]).toBe('/Applications/Chromium.app/Contents/MacOS/Chromium');

    const env = { PROGRAMFILES: 'C:\\Program Files', 'PROGRAMFILES(X86)': 'C:\\Program Files (x86)', LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local' };
    const chrome = 'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe';
    expect(findChromium({ env, platform: 'win32', exists: present(chrome), playwrightPath: () => null })?.path).toBe(chrome);
    expect(systemBrowserPaths('win32', env)).toContain('C:\\Users\\me\\AppData\\Local\\Chromium\\Application\\chrome.exe');
  });

  // POSIX paths and PATH: Windows has no such layout (its places are tested above).
  it.skipIf(process.platform === 'win32')('finds a real executable on PATH and ignores a folder of the same name', () => {
    const bin = tempDir();
    const other = tempDir();
    fs.mkdirSync(path.join(other, 'chromium'));
    fs.writeFileSync(path.join(bin, 'google-chrome'), '#!/bin/sh\n', { mode: 0o755 });
    const env = { PATH: [other, bin].join(path.delimiter) };
    const found = findChromium({ env, platform: 'linux', exists: (file) => file.startsWith(other) || file.startsWith(bin) ? isFile(file) : false, playwrightPath: () => null });
    expect(found).toEqual({ path: path.join(bin, 'google-chrome'), source: 'system' });
    expect(isFile(path.join(other, 'chromium'))).toBe(false);
  });
});

describe('ensureChromium', () => {
  it('installs Playwright\'s Chromium when none is found, then uses it', () => {
    const installed: string[] = [];
    const find = () => findChromium({ env: {}, platform: 'linux', exists: present(...installed), playwrightPath: () => OWN });
    const browser = ensureChromium({ find, install: () => (installed.push(OWN), true) });
    expect(browser).toEqual({ path: OWN, source: 'playwright' });
  });

  it('does not install when a browser is there', () => {
    let installs = 0;
    ensureChromium({ find: () => ({ path: '/usr/bin/chromium', source: 'system' }), install: () => (installs++, true) });
    expect(installs).toBe(0);
  });

  it('stops with one line saying what to install when the install fails or finds nothing', () => {
    expect(() => ensureChromium({ find: () => null, install: () => false })).toThrow(NO_CHROMIUM);
    expect(() => ensureChromium({ find: () => null, install: () => true })).toThrow(NO_CHROMIUM);
    expect(NO_CHROMIUM).not.toContain('\n');
    expect(NO_CHROMIUM).toMatch(/apt-get install chromium.*BINDERY_CHROMIUM/);
  });

  it('as a script, prints the browser it found (here BINDERY_CHROMIUM) and exits 0', () => {
    const browser = path.join(tempDir(), 'chrome');
    fs.writeFileSync(browser, '#!/bin/sh\n', { mode: 0o755 });
    const run = spawnSync(process.execPath, [path.join(import.meta.dirname, 'chromium.js')], { env: { ...process.env, BINDERY_CHROMIUM: browser }, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`e2e browser: ${browser} (BINDERY_CHROMIUM)\n`);
  });

  it('as a script, exits 1 with the reason on one line when BINDERY_CHROMIUM names nothing', () => {
    const run = spawnSync(process.execPath, [path.join(import.meta.dirname, 'chromium.js')], { env: { ...process.env, BINDERY_CHROMIUM: path.join(tempDir(), 'none') }, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
