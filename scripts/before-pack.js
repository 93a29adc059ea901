// electron-builder's beforePack hook (electron-builder.yml): stages better-sqlite3 built for
// Electron's ABI into out/native/<os>-<arch>/, where the `files` mapping picks it up, for exactly the
// platform and architecture being packed. Refuses to pack a real app without it: the app could not
// open its database.
import fs from 'node:fs';
import path from 'node:path';
import builderUtil from 'builder-util';
import { NATIVE_FILE, ensureElectronNative } from './electron-native.js';
import { isStandInExecutable } from './stand-in-electron.js';

/** The folder the `files` mapping `out/native/${os}-${arch}` reads, for one packaging pass. */
export function stageDir(projectDir, os, arch) {
  return path.join(projectDir, 'out', 'native', `${os}-${arch}`);
}

/** True when electronDist (absolute or relative to the project) is a stand-in Electron folder. */
export function usesStandIn(projectDir, electronDist) {
  if (typeof electronDist !== 'string' || electronDist === '') return false;
  return isStandInExecutable(path.join(path.resolve(projectDir, electronDist), 'electron'));
}

/**
 * Finds the Electron-ABI addon (BINDERY_ELECTRON_NATIVE, else scripts/electron-native.js) and
 * copies it into the stage folder for this pass.
 */
export async function beforePack(context) {
  const { packager, electronPlatformName, arch } = context;
  const projectDir = packager.projectDir;
  const archName = builderUtil.Arch[arch];
  const stage = stageDir(projectDir, packager.platform.buildConfigurationKey, archName);
  fs.rmSync(stage, { recursive: true, force: true });

  let source = process.env.BINDERY_ELECTRON_NATIVE || null;
  if (source) {
    if (!fs.existsSync(source)) {
      throw new Error(
        `BINDERY_ELECTRON_NATIVE points at ${source}, which does not exist. Point it at a better_sqlite3.node built for Electron, or unset it.`,
      );
    }
    console.log(`  • better-sqlite3 for Electron: using BINDERY_ELECTRON_NATIVE=${source}`);
  } else {
    source = await ensureElectronNative({ root: projectDir, platform: electronPlatformName, arch: archName });
  }
  if (!source) {
    if (usesStandIn(projectDir, packager.config.electronDist)) {
      console.warn(
        '  • better-sqlite3 for Electron: none (offline); packing for the stand-in Electron without it',
      );
      return;
    }
    throw new Error(
      `No better-sqlite3 built for Electron (${electronPlatformName}-${archName}): the packaged app could not open its database. ` +
        'See the electron-native message above; set BINDERY_ELECTRON_NATIVE to a prebuilt better_sqlite3.node to package anyway.',
    );
  }
  fs.mkdirSync(stage, { recursive: true });
  fs.copyFileSync(source, path.join(stage, NATIVE_FILE));
}
