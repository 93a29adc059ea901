// Finds a runnable Electron executable without ever downloading one: `require('electron')` would
// start a download when the binary is missing, so this reads the same places itself.
// Used by scripts/start.js and the Electron e2e project.
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The executable's path inside an Electron distribution folder, per platform (as electron's install.js). */
export function platformExecutable(platform = process.platform) {
  if (platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

/**
 * `{ path }` of the Electron executable (ELECTRON_OVERRIDE_DIST_PATH first, then the npm package's
 * dist folder), or `{ reason }` saying why there is none. A stand-in (scripts/stand-in-electron.js)
 * is not Electron and is refused.
 */
export function findElectronBinary({ env = process.env, root = repoRoot, platform = process.platform } = {}) {
  const packageDir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(packageDir, 'path.txt');
  const relative = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : platformExecutable(platform);
  const candidates = [];
  if (env.ELECTRON_OVERRIDE_DIST_PATH) candidates.push(path.join(env.ELECTRON_OVERRIDE_DIST_PATH, relative));
  else if (fs.existsSync(packageDir)) candidates.push(path.join(packageDir, 'dist', relative));
  for (const candidate of candidates) {
    if (!fs.existsSync(candidate)) continue;
    if (isStandIn(candidate)) return { reason: `${candidate} is a stand-in used for packaging checks, not Electron.` };
    return { path: candidate };
  }
  if (env.ELECTRON_OVERRIDE_DIST_PATH) return { reason: `ELECTRON_OVERRIDE_DIST_PATH is set, but ${candidates[0]} does not exist.` };
  if (!fs.existsSync(packageDir)) return { reason: 'the electron package is not installed (npm install).' };
  return {
    reason: `the electron package is installed without its binary (${candidates[0]} is missing): its download did not run or failed. Run "node node_modules/electron/install.js" where the network allows, or set ELECTRON_OVERRIDE_DIST_PATH to an Electron folder.`,
  };
}

function isStandIn(file) {
  try {
    const head = Buffer.alloc(512);
    const fd = fs.openSync(file, 'r');
    try {
      fs.readSync(fd, head, 0, head.length, 0);
    } finally {
      fs.closeSync(fd);
    }
    return head.toString('latin1').includes('bindery-stand-in-electron');
  } catch {
    return false;
  }
}
