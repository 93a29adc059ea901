/** Types of scripts/electron-native.js for TypeScript callers (the e2e global setup). */

/** The file name better-sqlite3's loader expects. */
export const NATIVE_FILE: string;
/** Electron's version and module ABI as installed in `root`'s node_modules, or null when Electron is absent. */
export function installedElectron(root?: string): { version: string; abi: string | null } | null;
/** Where the addon for this Electron version, platform and architecture is kept. */
export function nativeDir(root: string, electronVersion: string, platform: string, arch: string): string;
/** better-sqlite3 built for the installed Electron's ABI (kept in out/native), or null with the reason logged. */
export function ensureElectronNative(options?: {
  root?: string;
  platform?: NodeJS.Platform;
  arch?: string;
  log?: { log(message: string): void; warn(message: string): void };
}): Promise<string | null>;
/** The environment for prebuild-install and node-gyp, in which only their flags decide the target. */
export function toolEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
