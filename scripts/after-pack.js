// electron-builder's afterPack hook (electron-builder.yml): flips Bindery's Electron fuses on the
// packaged executable, before signing, and reads them back so a fuse that did not take fails the
// build. A stand-in Electron (scripts/stand-in-electron.js) has no fuse wire: it is skipped, loudly.
import path from 'node:path';
import { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } from '@electron/fuses';
import { isStandInExecutable } from './stand-in-electron.js';

// A fuse's byte in the wire: ASCII '1' or '0' (@electron/fuses keeps these constants private).
const FUSE_ENABLED = 0x31;
const FUSE_DISABLED = 0x30;

/**
 * The fuse settings for one platform, keyed by @electron/fuses' FuseV1Options names. Asar
 * integrity validation exists on macOS and Windows only (electron-builder embeds the hashes there).
 */
export function fuseSettings(platform) {
  return {
    RunAsNode: false,
    EnableCookieEncryption: true,
    EnableNodeOptionsEnvironmentVariable: false,
    EnableNodeCliInspectArguments: false,
    ...(platform === 'darwin' || platform === 'win32' ? { EnableEmbeddedAsarIntegrityValidation: true } : {}),
    OnlyLoadAppFromAsar: true,
  };
}

/** The path @electron/fuses takes for the packaged app: the .app bundle, the .exe, or the Linux executable. */
export function electronBinaryPath(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') {
    return path.join(appOutDir, `${packager.appInfo.productFilename}.app`);
  }
  if (electronPlatformName === 'win32')
    return path.join(appOutDir, `${packager.appInfo.productFilename}.exe`);
  return path.join(appOutDir, packager.executableName);
}

/** Flips the fuses of the packaged app in `context` and verifies them; skips a stand-in Electron. */
export async function afterPack(context) {
  const binary = electronBinaryPath(context);
  if (isStandInExecutable(binary)) {
    console.warn(
      `  • fuses skipped: ${binary} is the stand-in Electron, which has no fuse wire (this package cannot run anyway)`,
    );
    return;
  }
  const settings = fuseSettings(
    context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName,
  );
  const config = { version: FuseVersion.V1 };
  for (const [name, value] of Object.entries(settings)) config[FuseV1Options[name]] = value;
  // Flipping fuses breaks an arm64 binary's ad-hoc signature; re-sign so an unsigned build still starts.
  config.resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && context.arch === 3; // Arch.arm64
  await flipFuses(binary, config);

  const wire = await getCurrentFuseWire(binary);
  const wrong = Object.entries(settings).filter(
    ([name, value]) => wire[FuseV1Options[name]] !== (value ? FUSE_ENABLED : FUSE_DISABLED),
  );
  if (wrong.length > 0) {
    throw new Error(
      `Fuses did not take on ${binary}: ${wrong.map(([name]) => name).join(', ')}. Check that @electron/fuses supports this Electron version.`,
    );
  }
  console.log(
    `  • fuses set on ${path.basename(binary)}: ${Object.entries(settings)
      .map(([n, v]) => `${n}=${v ? 'on' : 'off'}`)
      .join(', ')}`,
  );
}
