/**
 * Which better-sqlite3 addon the Electron app loads: the one `npm start` built for Electron's ABI
 * (BINDERY_SQLITE_BINDING), or the one packaged beside the app (app.asar.unpacked/native), else
 * the default in node_modules.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The addon's file name, as scripts/electron-native.js builds it. */
export const NATIVE_FILE = 'better_sqlite3.node';

/** Where to look, in order of preference. */
export function nativeBindingCandidates(input: { env: NodeJS.ProcessEnv; isPackaged: boolean; appPath: string }): string[] {
  const candidates: string[] = [];
  if (input.env.BINDERY_SQLITE_BINDING) candidates.push(path.resolve(input.env.BINDERY_SQLITE_BINDING));
  if (input.isPackaged) {
    // Native files cannot load from inside app.asar: electron-builder unpacks them beside it.
    candidates.push(path.join(`${input.appPath}.unpacked`, 'native', NATIVE_FILE), path.join(input.appPath, 'native', NATIVE_FILE));
  }
  return candidates;
}

/** The first candidate that exists, or undefined for better-sqlite3's default. */
export function chooseNativeBinding(candidates: readonly string[], exists: (file: string) => boolean = fs.existsSync): string | undefined {
  return candidates.find((file) => exists(file));
}
