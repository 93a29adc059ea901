// The browser of the e2e run (`npm run test:e2e`, playwright.config.ts): BINDERY_CHROMIUM, then a
// system Chromium or Chrome, then Playwright's own download. `node scripts/chromium.js` runs before
// `playwright test`: it installs Playwright's Chromium when none is found, and when that fails it
// stops with one line saying what to install.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The line printed when no browser can be found or installed. */
export const NO_CHROMIUM =
  'No Chromium found: install it (Debian: apt-get install chromium; macOS: brew install --cask chromium) or set BINDERY_CHROMIUM to a Chromium or Chrome executable.';

/** Where Chromium and Chrome are installed on `platform`, most usual first; `env` gives Windows' folders. */
export function systemBrowserPaths(platform = process.platform, env = process.env) {
  if (platform === 'darwin') {
    const apps = ['/Applications', path.posix.join(env.HOME ?? '', 'Applications')];
    return apps.flatMap((dir) => [
      path.posix.join(dir, 'Chromium.app/Contents/MacOS/Chromium'),
      path.posix.join(dir, 'Google Chrome.app/Contents/MacOS/Google Chrome'),
    ]);
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)'] ?? env['ProgramFiles(x86)']].filter(Boolean);
    return roots.flatMap((root) => [path.win32.join(root, 'Chromium', 'Application', 'chrome.exe'), path.win32.join(root, 'Google', 'Chrome', 'Application', 'chrome.exe')]);
  }
  const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
  // The usual folders first, then the rest of PATH (a Chromium built or unpacked somewhere else).
  const dirs = [...new Set(['/usr/bin', '/snap/bin', ...(env.PATH ?? '').split(path.posix.delimiter).filter(Boolean)])];
  return dirs.flatMap((dir) => names.map((name) => path.posix.join(dir, name)));
}

/** Whether `file` is an existing file (a browser executable); a folder or nothing is not. */
export function isFile(file) {
  return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}

/** The path of Playwright's own Chromium for the installed Playwright (present or not), or null without Playwright. */
export function playwrightChromiumPath() {
  try {
    return createRequire(import.meta.url)('playwright').chromium.executablePath() || null;
  } catch {
    return null;
  }
}

/**
 * Finds the browser for the e2e run: BINDERY_CHROMIUM (which must exist), a system Chromium or
 * Chrome, then Playwright's download. Returns the executable and where it came from, or null.
 */
export function findChromium({ env = process.env, platform = process.platform, exists = isFile, playwrightPath = playwrightChromiumPath } = {}) {
  if (env.BINDERY_CHROMIUM) {
    if (exists(env.BINDERY_CHROMIUM)) return { path: env.BINDERY_CHROMIUM, source: 'BINDERY_CHROMIUM' };
    throw new Error(`BINDERY_CHROMIUM is ${env.BINDERY_CHROMIUM}, which does not exist: point it at a Chromium or Chrome executable, or unset it.`);
  }
  const system = systemBrowserPaths(platform, env).find((file) => exists(file));
  if (system) return { path: system, source: 'system' };
  const own = playwrightPath();
  if (own && exists(own)) return { path: own, source: 'playwright' };
  return null;
}

/** Runs `playwright install chromium` with the project's Playwright; true when it succeeded. */
export function installPlaywrightChromium() {
  let cli;
  try {
    cli = path.join(path.dirname(createRequire(import.meta.url).resolve('playwright/package.json')), 'cli.js');
  } catch {
    return false;
  }
  console.log('No Chromium found: installing Playwright\'s (playwright install chromium).');
  return spawnSync(process.execPath, [cli, 'install', 'chromium'], { stdio: 'inherit' }).status === 0;
}

/**
 * A browser for the e2e run, installing Playwright's Chromium when none is found; throws NO_CHROMIUM
 * when the install fails or still leaves none.
 */
export function ensureChromium({ find = () => findChromium(), install = installPlaywrightChromium } = {}) {
  const found = find();
  if (found) return found;
  if (install()) {
    const installed = find();
    if (installed) return installed;
  }
  throw new Error(NO_CHROMIUM);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const browser = ensureChromium();
    console.log(`e2e browser: ${browser.path} (${browser.source})`);
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}
