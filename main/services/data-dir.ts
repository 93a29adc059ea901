/**
 * Where Bindery keeps its data: `--data-dir`, else `BINDERY_HOME`, else the platform's app-data
 * folder for "Bindery" (the same folder Electron's `userData` uses), so the app and CLI agree.
 */
import os from 'node:os';
import path from 'node:path';

/** Inputs of the data-directory rule, injectable for tests. */
export interface DataDirInputs {
  flag?: string | undefined;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
}

/** The product folder name inside the platform's app-data folder. */
export const PRODUCT_NAME = 'Bindery';

/** Applies the data-directory rule and returns an absolute path. */
export function resolveDataDir(inputs: DataDirInputs = {}): string {
  const env = inputs.env ?? process.env;
  if (inputs.flag) return path.resolve(inputs.flag);
  if (env.BINDERY_HOME) return path.resolve(env.BINDERY_HOME);
  return path.join(appDataDir(inputs.platform ?? process.platform, env, inputs.home ?? os.homedir()), PRODUCT_NAME);
}

/** The platform's app-data folder, as Electron's `app.getPath('appData')` computes it. */
export function appDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'win32') return env.APPDATA ?? path.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME ?? path.join(home, '.config');
}
