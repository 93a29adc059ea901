/**
 * Launches the built Electron app (`electron .` -> out/main/electron-main.js) through Playwright's
 * `_electron`, or says why it cannot: this machine may have no Electron binary, and the specs
 * then skip with that reason instead of pretending.
 */
import { _electron, type ElectronApplication } from '@playwright/test';
import { findElectronBinary } from '../scripts/electron-binary.js';
import { REPO_ROOT } from './serve-process.ts';

/** The Electron executable, or the reason there is none. */
export const electronBinary = findElectronBinary();

/** Launches the app over `dataDir`. */
export async function launchElectron(dataDir: string): Promise<ElectronApplication> {
  if (!electronBinary.path) throw new Error(`No Electron binary: ${electronBinary.reason}`);
  return _electron.launch({
    executablePath: electronBinary.path,
    args: [REPO_ROOT, '--data-dir', dataDir, ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
    cwd: REPO_ROOT,
    // better-sqlite3 for Electron's ABI, prepared once by e2e/global-setup.ts.
    env: { ...process.env, ELECTRON_ENABLE_LOGGING: '1', ...(process.env.BINDERY_E2E_ELECTRON_SQLITE ? { BINDERY_SQLITE_BINDING: process.env.BINDERY_E2E_ELECTRON_SQLITE } : {}) },
  });
}
