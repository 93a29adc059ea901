/**
 * The e2e fixtures: a fresh data directory per test, and the app opened in it, either in
 * Chromium through the real `bindery serve` (project "web") or in Electron through `_electron`
 * (project "electron", skipped with the reason when no Electron binary exists). Specs use
 * `app.page` and never need to know which host they run against.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type ElectronApplication, type Page } from '@playwright/test';
import { electronBinary, launchElectron } from './electron-app.ts';
import { REPO_ROOT, startServe, type ServeProcess } from './serve-process.ts';

/** Which host a project runs the specs against. */
export type HostKind = 'web' | 'electron';

/** The app under test. */
export interface AppUnderTest {
  kind: HostKind;
  page: Page;
  dataDir: string;
  /** The web host (project "web" only). */
  server: ServeProcess | null;
  /** The Electron application (project "electron" only). */
  electron: ElectronApplication | null;
}

/** Where specs write the screenshots they take on purpose (failure screenshots go to test-results). */
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'e2e', 'artifacts');

let reasonPrinted = false;

/** The extended test with `hostKind`, `dataDir` and `app`. */
export const test = base.extend<{ hostKind: HostKind; dataDir: string; app: AppUnderTest; pageErrors: Error[] }>({
  hostKind: ['web', { option: true }],

  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures must destructure their dependencies
  dataDir: async ({}, use) => {
    const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'bindery-e2e-data-')));
    await use(dir);
    await fs.rm(dir, { recursive: true, force: true });
  },

  // eslint-disable-next-line no-empty-pattern -- as above
  pageErrors: async ({}, use) => {
    await use([]);
  },

  app: async ({ hostKind, dataDir, page, pageErrors }, use, testInfo) => {
    if (hostKind === 'electron') {
      if (!electronBinary.path) {
        if (!reasonPrinted) console.log(`[electron] skipping: no Electron binary here: ${electronBinary.reason}`);
        reasonPrinted = true;
        testInfo.skip(true, `No Electron binary: ${electronBinary.reason}`);
        return;
      }
      const electron = await launchElectron(dataDir);
      try {
        const window = await electron.firstWindow();
        window.on('pageerror', (error) => pageErrors.push(error));
        await window.waitForLoadState('domcontentloaded');
        await use({ kind: 'electron', page: window, dataDir, server: null, electron });
      } finally {
        await electron.close();
      }
      return;
    }
    const server = await startServe(dataDir);
    try {
      page.on('pageerror', (error) => pageErrors.push(error));
      await page.goto(server.url);
      await use({ kind: 'web', page, dataDir, server, electron: null });
    } finally {
      await server.stop();
      if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('bindery-serve-output', { body: server.output(), contentType: 'text/plain' });
    }
  },
});

/** Saves a named screenshot of the whole window under e2e/artifacts/ (kept by the test run). */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

export { expect };
