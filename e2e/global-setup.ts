/**
 * Once before the e2e run: where an Electron binary exists, better-sqlite3 for Electron's ABI
 * (scripts/electron-native.js, kept in out/native), named in BINDERY_E2E_ELECTRON_SQLITE for
 * launchElectron. Not BINDERY_SQLITE_BINDING itself: the Node processes (bindery serve, the CLI)
 * inherit this environment and need node_modules' Node build.
 */
import { findElectronBinary } from '../scripts/electron-binary.js';
import { ensureElectronNative } from '../scripts/electron-native.js';

/** Prepares the Electron-ABI addon once, so parallel workers never build it side by side. */
export default async function globalSetup(): Promise<void> {
  if (!findElectronBinary().path || process.env.BINDERY_E2E_ELECTRON_SQLITE) return;
  const binding = await ensureElectronNative();
  if (binding) process.env.BINDERY_E2E_ELECTRON_SQLITE = binding;
  else console.warn('[electron] better-sqlite3 for Electron could not be prepared (see above): the Electron specs will fail to open a database.');
}
