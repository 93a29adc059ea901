/**
 * ensureElectronNative's decisions that need no network: no Electron, a cached build, and that
 * node_modules' own Node build is never touched. Fetching or compiling for Electron needs the
 * network and runs in the release workflow, not here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

interface Log {
  log(message: string): void;
  warn(message: string): void;
}
interface NativeModule {
  ensureElectronNative(options: {
    root: string;
    platform?: string;
    arch?: string;
    log?: Log;
  }): Promise<string | null>;
  installedElectron(root: string): { version: string; abi: string | null } | null;
  nativeDir(root: string, electronVersion: string, platform: string, arch: string): string;
  toolEnv(env: Record<string, string>): Record<string, string>;
}

// An untyped JavaScript module, loaded by a computed specifier so TypeScript does not ask for types.
const modulePath = './electron-native.js';
const load = async () => (await import(modulePath)) as NativeModule;

let root: string;
let messages: string[];
const log: Log = { log: (m) => messages.push(m), warn: (m) => messages.push(m) };

function install(name: string, manifest: object, extra: Record<string, string> = {}): void {
  const dir = path.join(root, 'node_modules', name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  for (const [file, text] of Object.entries(extra)) fs.writeFileSync(path.join(dir, file), text);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-native-test-'));
  messages = [];
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('ensureElectronNative', () => {
  it('returns null and says why when Electron is not installed', async () => {
    const { ensureElectronNative } = await load();
    expect(await ensureElectronNative({ root, log })).toBeNull();
    expect(messages.join('\n')).toMatch(/Electron is not installed .* run npm install/);
  });

  it('reads the installed Electron version and module ABI', async () => {
    const { installedElectron } = await load();
    install('electron', { name: 'electron', version: '45.5.0' }, { abi_version: '150\n' });
    expect(installedElectron(root)).toEqual({ version: '45.5.0', abi: '150' });
  });

  it('reuses a build made for the same Electron and better-sqlite3 versions, beside node_modules', async () => {
    const { ensureElectronNative, nativeDir } = await load();
    install('electron', { name: 'electron', version: '45.5.0' }, { abi_version: '150' });
    install('better-sqlite3', { name: 'better-sqlite3', version: '12.11.1' });
    const dir = nativeDir(root, '45.5.0', 'linux', 'x64');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'better_sqlite3.node'), 'cached');
    fs.writeFileSync(
      path.join(dir, 'build.json'),
      JSON.stringify({ electron: '45.5.0', betterSqlite3: '12.11.1' }),
    );
    expect(await ensureElectronNative({ root, platform: 'linux', arch: 'x64', log })).toBe(
      path.join(dir, 'better_sqlite3.node'),
    );
    expect(dir.startsWith(path.join(root, 'out', 'native'))).toBe(true);
  });

  it("keeps npm's nodedir from turning the Electron build into a Node build, but keeps its proxy", async () => {
    // Under `npm run`, a global `nodedir = /usr` arrives as npm_config_nodedir and node-gyp would
    // compile against Node's headers (seen on this machine; the ABI check caught it).
    const { toolEnv } = await load();
    const env = toolEnv({
      PATH: '/bin',
      npm_config_nodedir: '/usr',
      NPM_CONFIG_TARGET: '20.0.0',
      npm_config_https_proxy: 'http://proxy:3128',
    });
    expect(env).toEqual({ PATH: '/bin', npm_config_https_proxy: 'http://proxy:3128' });
  });
});
