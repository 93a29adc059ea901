// better-sqlite3 for Electron's ABI, built beside (never over) the Node build in node_modules that
// the tests and the CLI load. The packaged app loads it through useNativeBinding()
// (main/registry/database.ts). Works on a copy of the package in a temp folder: first a prebuilt
// binary (prebuild-install), else a compile against Electron's headers (node-gyp). Both need the
// network the first time; the result is kept in out/native/electron-<version>-<platform>-<arch>/.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The file name better-sqlite3's loader expects. */
export const NATIVE_FILE = 'better_sqlite3.node';

/** Electron's version and module ABI as installed in `root`'s node_modules, or null when Electron is absent. */
export function installedElectron(root = repoRoot) {
  const dir = path.join(root, 'node_modules', 'electron');
  const manifest = readJson(path.join(dir, 'package.json'));
  if (!manifest) return null;
  const abiFile = path.join(dir, 'abi_version');
  const abi = fs.existsSync(abiFile) ? fs.readFileSync(abiFile, 'utf8').trim() : null;
  return { version: manifest.version, abi };
}

/** Where the addon for this Electron version, platform and architecture is kept. */
export function nativeDir(root, electronVersion, platform, arch) {
  return path.join(root, 'out', 'native', `electron-${electronVersion}-${platform}-${arch}`);
}

/**
 * Makes sure better-sqlite3 exists for the installed Electron's ABI and returns the .node path; or
 * prints why not and returns null (Electron not installed, or no prebuilt binary and no headers
 * because the machine is offline). `platform`/`arch` default to this machine's.
 */
export async function ensureElectronNative({
  root = repoRoot,
  platform = process.platform,
  arch = process.arch,
  log = console,
} = {}) {
  const electron = installedElectron(root);
  if (!electron) {
    log.warn(
      `electron-native: Electron is not installed in ${root}/node_modules; run npm install, then npm run dist again.`,
    );
    return null;
  }
  const sqlite = readJson(path.join(root, 'node_modules', 'better-sqlite3', 'package.json'));
  if (!sqlite) {
    log.warn('electron-native: better-sqlite3 is not installed; run npm install.');
    return null;
  }
  const target = nativeDir(root, electron.version, platform, arch);
  const file = path.join(target, NATIVE_FILE);
  const stamp = {
    electron: electron.version,
    abi: electron.abi,
    betterSqlite3: sqlite.version,
    platform,
    arch,
  };
  const existing = readJson(path.join(target, 'build.json'));
  if (fs.existsSync(file) && existing?.betterSqlite3 === sqlite.version) return file;

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-native-'));
  try {
    const pkg = path.join(work, 'better-sqlite3');
    fs.cpSync(path.join(root, 'node_modules', 'better-sqlite3'), pkg, {
      recursive: true,
      filter: (src) => !src.startsWith(path.join(root, 'node_modules', 'better-sqlite3', 'build')),
    });
    const attempts = [];
    const source =
      (await attempt(
        'prebuilt binary',
        () => fetchPrebuilt(root, pkg, electron.version, platform, arch),
        attempts,
      )) ??
      (await attempt(
        'compile against Electron headers',
        () => compile(root, pkg, electron.version, platform, arch),
        attempts,
      ));
    if (!source) {
      log.warn(
        `electron-native: could not get better-sqlite3 ${sqlite.version} for Electron ${electron.version} (${platform}-${arch}):\n` +
          attempts.map((line) => `  - ${line}`).join('\n') +
          '\n  Both need network access (GitHub releases, electronjs.org headers). Run npm run dist on a connected machine,' +
          ' or set BINDERY_ELECTRON_NATIVE to a better_sqlite3.node built for this Electron.',
      );
      return null;
    }
    const built = path.join(pkg, 'build', 'Release', NATIVE_FILE);
    const abiProblem = checkAbi(built, electron.abi, platform, arch);
    if (abiProblem) {
      log.warn(`electron-native: ${abiProblem}`);
      return null;
    }
    fs.mkdirSync(target, { recursive: true });
    fs.copyFileSync(built, file);
    fs.writeFileSync(path.join(target, 'build.json'), `${JSON.stringify({ ...stamp, source }, null, 2)}\n`);
    log.log(
      `electron-native: better-sqlite3 ${sqlite.version} for Electron ${electron.version} (${platform}-${arch}, ${source}) -> ${path.relative(root, file)}`,
    );
    return file;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function attempt(label, action, attempts) {
  try {
    await action();
    return label;
  } catch (error) {
    attempts.push(`${label}: ${summarize(`${error.stderr ?? ''}${error.stdout ?? ''}`) || error.message}`);
    return null;
  }
}

/** The telling lines of a failed tool's output: the first error with its continuation, else the last lines. */
function summarize(output) {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const first = lines.findIndex((line) => line.includes('Error:'));
  const picked = first >= 0 ? lines.slice(first, first + 3) : lines.slice(-2);
  return picked.map((line) => line.replace(/^gyp ERR! stack /, '')).join(' ');
}

// npm settings that, exported as npm_config_* under `npm run`, would override the target: a
// `nodedir` makes node-gyp compile against Node's headers instead of Electron's. Proxy and cache
// settings pass through.
const TARGET_SETTINGS =
  /^npm_config_(nodedir|target|runtime|arch|platform|disturl|dist_url|devdir|build_from_source|libc)$/i;

/** The environment for prebuild-install and node-gyp, in which only their flags decide the target. */
export function toolEnv(env = process.env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !TARGET_SETTINGS.test(name)));
}

function fetchPrebuilt(root, cwd, electronVersion, platform, arch) {
  const bin = path.join(root, 'node_modules', 'prebuild-install', 'bin.js');
  return run(
    process.execPath,
    [
      bin,
      '--runtime=electron',
      `--target=${electronVersion}`,
      `--platform=${platform}`,
      `--arch=${arch}`,
      '--tag-prefix=v',
    ],
    { cwd, env: toolEnv(), timeout: 120_000 },
  );
}

function compile(root, cwd, electronVersion, platform, arch) {
  if (platform !== process.platform) throw new Error(`cannot compile for ${platform} on ${process.platform}`);
  const bin = path.join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  const devdir = path.join(os.homedir(), '.electron-gyp');
  return run(
    process.execPath,
    [
      bin,
      'rebuild',
      '--release',
      '--runtime=electron',
      `--target=${electronVersion}`,
      `--arch=${arch}`,
      '--dist-url=https://electronjs.org/headers',
      `--devdir=${devdir}`,
    ],
    { cwd, env: toolEnv(), timeout: 900_000, maxBuffer: 64 * 1024 * 1024 },
  );
}

/**
 * On a matching platform and architecture, loads the addon into this Node process: Node must
 * refuse it and name Electron's module version. Loading fine would mean it is a Node build.
 */
function checkAbi(file, electronAbi, platform, arch) {
  if (platform !== process.platform || arch !== process.arch || !electronAbi) return null;
  try {
    process.dlopen({ exports: {} }, file);
  } catch (error) {
    const match = /NODE_MODULE_VERSION (\d+)/.exec(error.message);
    if (!match || match[1] === electronAbi) return null;
    return `${file} was built for module version ${match[1]}, but Electron needs ${electronAbi}; delete out/native and run npm run dist again.`;
  }
  return `${file} loads in Node ${process.version}, so it was built for Node, not Electron; delete out/native and run npm run dist again.`;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = await ensureElectronNative();
  if (file) console.log(file);
  process.exitCode = file ? 0 : 1;
}
