/**
 * "Install 'bindery' command" from the app menu, as editors do: puts the CLI launcher shipped in
 * the app's resources/bin on PATH. macOS and Linux get a symlink (an AppImage, whose files vanish
 * when it exits, gets a small script that runs the AppImage); Windows gets resources\bin on the
 * user PATH. No Electron import here, so all of it runs and is tested under plain Node.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BinderyError, ConflictError, ValidationError } from '../../shared/errors.ts';

/** Where the app is and what the machine looks like; `cliInstallContext` fills it from the process. */
export interface CliInstallContext {
  platform: NodeJS.Platform;
  /** The app's resources folder (Electron's `process.resourcesPath`). */
  resourcesPath: string;
  homeDir: string;
  pathEnv: string;
  /** The AppImage file when running from one (`$APPIMAGE`). */
  appImage?: string | undefined;
  /** Folders to put the command in, best first; defaults per platform. */
  binDirs?: readonly string[] | undefined;
}

/** What installing did, with a sentence for the dialog. */
export interface CliInstallResult {
  command: string;
  onPath: boolean;
  message: string;
}

/** Runs a PowerShell script with extra environment variables and returns its standard output. */
export type PowerShellRunner = (script: string, env: Record<string, string>) => Promise<string>;

/** The command's name on PATH. */
export const CLI_NAME = 'bindery';

// Written into the AppImage wrapper so a later install or uninstall knows the file is Bindery's.
const SCRIPT_MARKER = '# bindery-cli-launcher';

/** The context of the running app: pass Electron's `process.resourcesPath`. */
export function cliInstallContext(resourcesPath: string): CliInstallContext {
  return {
    platform: process.platform,
    resourcesPath,
    homeDir: os.homedir(),
    pathEnv: process.env.PATH ?? '',
    appImage: process.env.APPIMAGE || undefined,
  };
}

/** The launcher the installed app ships: resources/bin/bindery, or bindery.cmd on Windows. */
export function launcherPath(resourcesPath: string, platform: NodeJS.Platform): string {
  return path.join(resourcesPath, 'bin', platform === 'win32' ? `${CLI_NAME}.cmd` : CLI_NAME);
}

/**
 * Where the command may go, best first: on macOS /usr/local/bin (where editors put theirs) then
 * ~/.local/bin; on Linux ~/.local/bin (no root needed, on PATH in common distributions) first.
 */
export function defaultBinDirs(platform: NodeJS.Platform, homeDir: string): string[] {
  const local = path.join(homeDir, '.local', 'bin');
  return platform === 'darwin' ? ['/usr/local/bin', local] : [local, '/usr/local/bin'];
}

/** True when `dir` is one of the entries of a PATH value (Windows compares case-insensitively). */
export function isOnPath(dir: string, pathEnv: string, platform: NodeJS.Platform): boolean {
  const key = pathKey(platform);
  return pathEnv
    .split(platform === 'win32' ? ';' : ':')
    .some((entry) => entry !== '' && key(entry) === key(dir));
}

/** A Windows PATH value with `dir` appended, or null when it is there already. */
export function withPathEntry(pathValue: string, dir: string): string | null {
  if (isOnPath(dir, pathValue, 'win32')) return null;
  const entries = pathValue.split(';').filter((entry) => entry !== '');
  return [...entries, dir].join(';');
}

/** A Windows PATH value without `dir`, or null when it was not there. */
export function withoutPathEntry(pathValue: string, dir: string): string | null {
  const key = pathKey('win32');
  const entries = pathValue.split(';').filter((entry) => entry !== '');
  const kept = entries.filter((entry) => key(entry) !== key(dir));
  return kept.length === entries.length ? null : kept.join(';');
}

/** Puts the `bindery` command on PATH (replacing an older one of Bindery's, never anything else). */
export async function installCli(
  context: CliInstallContext,
  powershell: PowerShellRunner = runPowerShell,
): Promise<CliInstallResult> {
  const launcher = launcherPath(context.resourcesPath, context.platform);
  if (!context.appImage && !fs.existsSync(launcher)) {
    throw new ValidationError(
      `The command launcher is missing at ${launcher}. "Install 'bindery' command" works in an installed Bindery; ` +
        'in a source checkout run `npm link` instead.',
      { launcher },
    );
  }
  if (context.platform === 'win32') return addToUserPath(path.dirname(launcher), powershell);

  const dir = chooseBinDir(context);
  const command = path.join(dir, CLI_NAME);
  if (!isOurs(command)) {
    throw new ConflictError(
      `${command} already exists and is not Bindery's launcher. Remove or rename it, then install the command again.`,
      { command },
    );
  }
  if (context.appImage) {
    replaceAtomically(command, (temp) =>
      fs.writeFileSync(temp, appImageScript(context.appImage!), { mode: 0o755 }),
    );
  } else {
    replaceAtomically(command, (temp) => fs.symlinkSync(launcher, temp));
  }
  const onPath = isOnPath(dir, context.pathEnv, context.platform);
  const hint = onPath
    ? ''
    : ` ${dir} is not on your PATH yet: add  export PATH="${dir}:$PATH"  to your shell profile and open a new terminal.`;
  return {
    command,
    onPath,
    message: `Installed: the ${CLI_NAME} command at ${command} now runs this Bindery.${hint}`,
  };
}

/** Removes the `bindery` command if it is Bindery's; returns what was removed (empty when nothing was). */
export async function uninstallCli(
  context: CliInstallContext,
  powershell: PowerShellRunner = runPowerShell,
): Promise<string[]> {
  if (context.platform === 'win32') {
    const dir = path.dirname(launcherPath(context.resourcesPath, context.platform));
    const current = await powershell(READ_USER_PATH, {});
    const next = withoutPathEntry(current.trim(), dir);
    if (next === null) return [];
    await powershell(WRITE_USER_PATH, { BINDERY_USER_PATH: next });
    return [dir];
  }
  const dirs = context.binDirs ?? defaultBinDirs(context.platform, context.homeDir);
  const removed: string[] = [];
  for (const dir of dirs) {
    const command = path.join(dir, CLI_NAME);
    if (exists(command) && isOurs(command)) {
      fs.rmSync(command, { force: true });
      removed.push(command);
    }
  }
  return removed;
}

// The directory is passed in the environment, never spliced into the script's text.
const READ_USER_PATH = "[Environment]::GetEnvironmentVariable('Path', 'User')";
// SetEnvironmentVariable also broadcasts the change, so terminals opened afterwards see it.
const WRITE_USER_PATH = "[Environment]::SetEnvironmentVariable('Path', $env:BINDERY_USER_PATH, 'User')";

async function addToUserPath(dir: string, powershell: PowerShellRunner): Promise<CliInstallResult> {
  const current = (await powershell(READ_USER_PATH, {})).trim();
  const next = withPathEntry(current, dir);
  if (next !== null) await powershell(WRITE_USER_PATH, { BINDERY_USER_PATH: next });
  return {
    command: path.join(dir, `${CLI_NAME}.cmd`),
    onPath: true,
    message: `Installed: ${dir} is on your user PATH, so the ${CLI_NAME} command works in terminals opened from now on.`,
  };
}

function chooseBinDir(context: CliInstallContext): string {
  const dirs = context.binDirs ?? defaultBinDirs(context.platform, context.homeDir);
  for (const dir of dirs) {
    // Folders under the home directory may be created; system folders must already exist.
    if (!fs.existsSync(dir) && isInside(dir, context.homeDir)) fs.mkdirSync(dir, { recursive: true });
    if (isWritableDir(dir)) return dir;
  }
  throw new BinderyError(
    'io_error',
    `None of ${dirs.join(', ')} is a folder Bindery may write to. Create ${dirs.at(-1)} (or make one of them writable), then install the command again.`,
    { dirs },
  );
}

/** True when `command` is absent, a symlink to a Bindery launcher (any install), or Bindery's AppImage script. */
function isOurs(command: string): boolean {
  if (!exists(command)) return true;
  const stat = fs.lstatSync(command);
  if (stat.isSymbolicLink()) {
    const target = fs.readlinkSync(command);
    return path.basename(target) === CLI_NAME && /[/\\][Rr]esources[/\\]bin$/.test(path.dirname(target));
  }
  return stat.isFile() && stat.size < 4096 && fs.readFileSync(command, 'utf8').includes(SCRIPT_MARKER);
}

function appImageScript(appImage: string): string {
  const quoted = `'${appImage.replaceAll("'", `'\\''`)}'`;
  return [
    '#!/bin/sh',
    `${SCRIPT_MARKER}: written by Bindery's "Install 'bindery' command"; runs the AppImage's CLI.`,
    // The same switches as bin/bindery-launcher.sh, which cannot be used: it lives inside the AppImage.
    'unset ELECTRON_RUN_AS_NODE',
    'set -- --cli "$@"',
    'if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then set -- --ozone-platform=headless "$@"; fi',
    'if [ "$(id -u)" = 0 ]; then set -- --no-sandbox "$@"; fi',
    `exec ${quoted} "$@"`,
    '',
  ].join('\n');
}

/** Writes the new command beside the old one, then renames over it: never a moment without one. */
function replaceAtomically(command: string, write: (temp: string) => void): void {
  const temp = path.join(path.dirname(command), `.${CLI_NAME}.${process.pid}.tmp`);
  fs.rmSync(temp, { force: true });
  write(temp);
  try {
    fs.renameSync(temp, command);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function isWritableDir(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function isInside(dir: string, parent: string): boolean {
  const relative = path.relative(parent, dir);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

function pathKey(platform: NodeJS.Platform): (entry: string) => string {
  return platform === 'win32'
    ? (entry) => entry.replace(/[\\/]+$/, '').toLowerCase()
    : (entry) => entry.replace(/\/+$/, '');
}

const execFileAsync = promisify(execFile);

async function runPowerShell(script: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await execFileAsync(
    'powershell.exe',
    ['-NoProfile', '-NonInteractive', '-Command', script],
    {
      env: { ...process.env, ...env },
      windowsHide: true,
    },
  );
  return stdout;
}
