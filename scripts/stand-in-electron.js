// A stand-in for Electron's Linux distribution, for machines without the Electron binary (this
// build machine has none and cannot download one). It lets electron-builder lay out a real
// package whose contents can be checked; the package cannot run, and says so when started.
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';

/** A line every stand-in executable carries, so the fuses hook can recognise and skip it. */
export const STAND_IN_MARKER = 'bindery-stand-in-electron';

/**
 * Creates (or refreshes) a stand-in Electron folder at `dir` for `version`: an executable shell
 * script named `electron`, a `version` file, an empty `resources/` and `locales/`. Returns `dir`.
 */
export function createStandInElectron(dir, version) {
  fs.mkdirSync(path.join(dir, 'resources'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'locales'), { recursive: true });
  const script = [
    '#!/bin/sh',
    `# ${STAND_IN_MARKER}: not Electron. Packages built with it are for checking contents only.`,
    `echo "This Bindery package was built against a stand-in Electron ${version} and cannot run. Rebuild it with npm run dist where Electron can be downloaded." >&2`,
    'exit 1',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'electron'), script, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'version'), `${version}\n`);
  fs.writeFileSync(
    path.join(dir, 'LICENSE'),
    'Stand-in for the Electron distribution; see scripts/stand-in-electron.js.\n',
  );
  return dir;
}

/** True when `file` is a stand-in executable (it has no fuse wire and cannot run an app). */
export function isStandInExecutable(file) {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) return false;
  // The marker sits in the first lines; a real Electron binary is far too large to read whole.
  const head = Buffer.alloc(512);
  const fd = fs.openSync(file, 'r');
  try {
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, read).toString('latin1').includes(STAND_IN_MARKER);
  } finally {
    fs.closeSync(fd);
  }
}
