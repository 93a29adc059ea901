// `npm run dist [-- <electron-builder args>]`: builds out/, then runs electron-builder for this
// platform (or the platforms and targets passed through, e.g. `npm run dist -- --linux dir`).
// The beforePack hook stages better-sqlite3 for Electron's ABI; the afterPack hook sets the fuses.
//
// Environment:
//   BINDERY_ELECTRON_DIST    a folder holding an unpacked Electron, or `stand-in` for a stand-in
//                            that lets a machine without Electron package for a contents check only
//   BINDERY_ELECTRON_NATIVE  a better_sqlite3.node built for this Electron, instead of fetching one
//   BINDERY_DIST_SKIP_BUILD  1 to package the existing out/ without rebuilding it
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedElectron } from './electron-native.js';
import { createStandInElectron } from './stand-in-electron.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The electron-builder arguments for `userArgs` under `env`: the user's own, plus the Electron
 * folder and version when BINDERY_ELECTRON_DIST is set (a stand-in also gets its own output folder).
 */
export function builderArgs(userArgs, env = process.env, projectRoot = root) {
  const args = [...userArgs];
  const dist = env.BINDERY_ELECTRON_DIST;
  if (!dist) return args;
  const electron = installedElectron(projectRoot);
  if (!electron)
    throw new Error(
      'BINDERY_ELECTRON_DIST needs the electron package installed (for its version): run npm install.',
    );
  let folder = path.resolve(projectRoot, dist);
  if (dist === 'stand-in') {
    // Outside out/ so the `files` globs never pack it, and kept across builds that clean out/.
    folder = createStandInElectron(
      path.join(projectRoot, 'node_modules', '.cache', 'bindery-stand-in-electron'),
      electron.version,
    );
    if (!args.some((arg) => /^(-c|--config)\.directories\.output=/.test(arg))) {
      args.push(`--config.directories.output=${path.join('release', 'stand-in')}`);
    }
  } else if (!fs.existsSync(folder)) {
    throw new Error(
      `BINDERY_ELECTRON_DIST=${dist}: ${folder} does not exist. Point it at an unpacked Electron ${electron.version}, or use BINDERY_ELECTRON_DIST=stand-in.`,
    );
  }
  args.push(`--config.electronDist=${folder}`, `--config.electronVersion=${electron.version}`);
  return args;
}

function step(label, command, args, env = process.env) {
  console.log(`dist: ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function main() {
  if (process.env.BINDERY_DIST_SKIP_BUILD !== '1') {
    const status = step('building out/ (npm run build)', process.execPath, [
      path.join(root, 'scripts', 'build.js'),
    ]);
    if (status !== 0) return status;
  }
  if (!fs.existsSync(path.join(root, 'out', 'main'))) {
    console.error(
      'dist: out/main is missing: run npm run build (scripts/build.js) first and check its output.',
    );
    return 1;
  }
  const args = builderArgs(process.argv.slice(2));
  if (process.env.BINDERY_ELECTRON_DIST === 'stand-in') {
    console.warn('dist: using a stand-in Electron: the package is for checking its contents and cannot run.');
  } else if (
    !process.env.BINDERY_ELECTRON_DIST &&
    !fs.existsSync(path.join(root, 'node_modules', 'electron', 'dist'))
  ) {
    // Not an error: electron-builder downloads its own copy. Offline, that download is what fails.
    console.warn(
      'dist: no Electron binary is installed here. If electron-builder cannot download Electron,\n' +
        '      BINDERY_ELECTRON_DIST=stand-in packages for a contents check only (docs/packaging.md).',
    );
  }
  return step(`electron-builder ${args.join(' ')}`, process.execPath, [
    path.join(root, 'node_modules', 'electron-builder', 'cli.js'),
    ...args,
  ]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main();
}
