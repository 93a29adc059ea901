/**
 * Packages the Linux `dir` target through `npm run dist`'s own script against a stand-in Electron
 * and checks what the package holds. What this proves: the contents and layout of the package
 * (built main, preload and renderer in app.asar, production dependencies only, no sources, the
 * Electron-ABI addon slot unpacked, the CLI launcher, package metadata), and that the packaged CLI
 * bundle runs under plain Node with only the packaged node_modules. What it does not prove:
 * that Electron starts the app; this machine has no Electron binary, and the stand-in cannot run.
 * The addon packed here is a placeholder file standing in for better-sqlite3 built for Electron.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  productName: string;
  version: string;
  main: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

interface Asar {
  listPackage(archive: string, options: { isPack: boolean }): string[];
  extractFile(archive: string, file: string): Buffer;
  statFile(archive: string, file: string): { unpacked?: boolean };
  extractAll(archive: string, dest: string): void;
}

// Untyped JavaScript modules, loaded by a computed specifier so TypeScript does not ask for types.
async function load<T>(specifier: string): Promise<T> {
  return (await import(specifier)) as T;
}

const BUILD_SCRIPT = path.join(root, 'scripts', 'build.js');
const PLACEHOLDER_ADDON = 'placeholder for better-sqlite3 built for Electron (packaging test)\n';
// Dev-only packages that would betray a careless `files` list; tsx and esbuild are production
// dependencies of the source checkout's bin/bindery.js that the package must still leave out.
const NEVER_SHIPPED = [
  'typescript',
  'vite',
  'vitest',
  'playwright',
  '@playwright/test',
  'electron',
  'electron-builder',
  'eslint',
  'tsx',
  'esbuild',
];

describe('linux dir package (stand-in Electron; contents only, not a running app)', () => {
  let work: string;
  let appDir: string;
  let archive: string;
  let entries: string[];
  let asar: Asar;

  beforeAll(async () => {
    asar = await load<Asar>('@electron/asar');
    if (!fs.existsSync(path.join(root, 'out', 'main', 'electron-main.js'))) {
      await run(process.execPath, [BUILD_SCRIPT], {
        cwd: root,
        timeout: 240_000,
        maxBuffer: 64 * 1024 * 1024,
      });
    }
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-packaging-'));
    const { createStandInElectron } = await load<{
      createStandInElectron(dir: string, version: string): string;
    }>('./stand-in-electron.js');
    const electronVersion = (
      JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const electronDist = createStandInElectron(path.join(work, 'electron'), electronVersion);
    const addon = path.join(work, 'better_sqlite3.node');
    fs.writeFileSync(addon, PLACEHOLDER_ADDON);
    const output = path.join(work, 'release');
    await run(
      process.execPath,
      [path.join(root, 'scripts', 'dist.js'), '--linux', 'dir', `--config.directories.output=${output}`],
      {
        cwd: root,
        timeout: 240_000,
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          BINDERY_DIST_SKIP_BUILD: '1',
          BINDERY_ELECTRON_DIST: electronDist,
          BINDERY_ELECTRON_NATIVE: addon,
        },
      },
    );
    appDir = path.join(output, 'linux-unpacked');
    archive = path.join(appDir, 'resources', 'app.asar');
    entries = asar.listPackage(archive, { isPack: false }).map((entry) => entry.split(path.sep).join('/'));
  }, 300_000);

  afterAll(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
    // The beforePack hook staged the placeholder addon in out/native; leave no fake behind there.
    const staged = path.join(root, 'out', 'native', 'linux-x64', 'better_sqlite3.node');
    if (fs.existsSync(staged) && fs.readFileSync(staged, 'utf8') === PLACEHOLDER_ADDON)
      fs.rmSync(path.dirname(staged), { recursive: true });
  });

  it('was laid out around the stand-in executable, which is all this test can run against', () => {
    const executable = path.join(appDir, 'bindery-app');
    expect(fs.statSync(executable).mode & 0o111).not.toBe(0);
    expect(fs.readFileSync(executable, 'utf8')).toContain('bindery-stand-in-electron');
  });

  it('carries the package metadata the app and the installers read', () => {
    const packed = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(packed).toMatchObject({
      name: 'bindery',
      productName: 'Bindery',
      version: manifest.version,
      main: 'out/main/electron-main.js',
      type: 'module',
    });
    expect(packed.devDependencies).toBeUndefined();
  });

  it('holds the built main (the file package.json names), preload and renderer', () => {
    expect(entries).toContain(`/${manifest.main}`);
    expect(entries).toContain('/out/preload/preload.cjs');
    expect(entries).toContain('/out/renderer/index.html');
    expect(entries).toContain('/out/cli/bindery.js');
    expect(entries.some((entry) => entry.startsWith('/out/renderer/') && entry.endsWith('.js'))).toBe(true);
  });

  it('holds no sources, tests, docs, or build leftovers', () => {
    const topLevel = new Set(entries.map((entry) => entry.split('/')[1]));
    expect([...topLevel].sort()).toEqual(['native', 'node_modules', 'out', 'package.json']);
    expect(entries.filter((entry) => /\.(ts|tsx|mts|cts|map)$/.test(entry))).toEqual([]);
    expect(entries.filter((entry) => /\.test\.|\/e2e\/|\/bench\/|\/docs\//.test(entry))).toEqual([]);
    expect(entries.filter((entry) => entry.startsWith('/out/native'))).toEqual([]);
  });

  it('holds the production dependencies and none of the development ones', () => {
    const packages = new Set(
      entries
        .filter((entry) => /^\/node_modules\/(@[^/]+\/)?[^/@]+$/.test(entry))
        .map((entry) => entry.slice('/node_modules/'.length)),
    );
    for (const name of Object.keys(manifest.dependencies).filter((name) => name !== 'tsx')) {
      expect(packages, `production dependency ${name}`).toContain(name);
    }
    for (const name of [...Object.keys(manifest.devDependencies), ...NEVER_SHIPPED]) {
      expect(packages, `development dependency ${name}`).not.toContain(name);
    }
  });

  it('unpacks the Electron-ABI addon slot and ships no Node-ABI build of better-sqlite3', () => {
    expect(asar.statFile(archive, 'native/better_sqlite3.node').unpacked).toBe(true);
    const unpacked = path.join(appDir, 'resources', 'app.asar.unpacked', 'native', 'better_sqlite3.node');
    expect(fs.readFileSync(unpacked, 'utf8')).toBe(PLACEHOLDER_ADDON);
    expect(entries.filter((entry) => entry.startsWith('/node_modules/better-sqlite3/build'))).toEqual([]);
    expect(entries).toContain('/node_modules/better-sqlite3/lib/index.js');
  });

  it('ships the CLI launcher in resources/bin, executable, and no Windows launcher', () => {
    const launcher = path.join(appDir, 'resources', 'bin', 'bindery');
    expect(fs.readFileSync(launcher, 'utf8')).toBe(
      fs.readFileSync(path.join(root, 'bin', 'bindery-launcher.sh'), 'utf8'),
    );
    expect(fs.statSync(launcher).mode & 0o111).not.toBe(0);
    expect(fs.existsSync(path.join(appDir, 'resources', 'bin', 'bindery.cmd'))).toBe(false);
  });

  it('runs its CLI bundle with nothing but the packaged node_modules, once given a better-sqlite3 binding', async () => {
    // Plain Node stands in for Electron here, so the binding is node_modules' Node build: this
    // proves the bundle and the pruned dependencies suffice, not that Electron's ABI matches.
    const extracted = path.join(work, 'extracted');
    asar.extractAll(archive, extracted);
    const cli = path.join(extracted, 'out', 'cli', 'bindery.js');
    const env: NodeJS.ProcessEnv = { ...process.env, BINDERY_HOME: path.join(work, 'home') };
    delete env.BINDERY_SQLITE_BINDING;
    const binding = path.join(
      root,
      'node_modules',
      'better-sqlite3',
      'build',
      'Release',
      'better_sqlite3.node',
    );
    const { stdout } = await run(process.execPath, [cli, '--json', 'types', 'list'], {
      cwd: work,
      env: { ...env, BINDERY_SQLITE_BINDING: binding },
    });
    expect((JSON.parse(stdout) as Array<{ name: string }>).map((type) => type.name)).toContain(
      'git-checkout',
    );
    // Without a binding it fails: the package carries no Node build to fall back on.
    await expect(
      run(process.execPath, [cli, '--json', 'types', 'list'], { cwd: work, env }),
    ).rejects.toMatchObject({
      stdout: expect.stringContaining('Could not locate the bindings file'),
    });
  });
});
