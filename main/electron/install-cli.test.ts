import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../shared/errors.ts';
import {
  type CliInstallContext,
  defaultBinDirs,
  installCli,
  isOnPath,
  launcherPath,
  uninstallCli,
  withoutPathEntry,
  withPathEntry,
} from './install-cli.ts';

const run = promisify(execFile);
// Chromium will not start as root without --no-sandbox, so the launchers add it for root only.
const asRoot = process.getuid?.() === 0 ? '--no-sandbox ' : '';
const repoLauncher = path.resolve(import.meta.dirname, '..', '..', 'bin', 'bindery-launcher.sh');

let work: string;
let home: string;
let resources: string;

// A fake installed Linux app: the real launcher in resources/bin, and an "app executable" that
// prints the arguments it was given, standing in for Electron.
function fakeInstalledApp(): void {
  fs.mkdirSync(path.join(resources, 'bin'), { recursive: true });
  fs.copyFileSync(repoLauncher, path.join(resources, 'bin', 'bindery'));
  fs.chmodSync(path.join(resources, 'bin', 'bindery'), 0o755);
  fs.writeFileSync(path.join(resources, '..', 'bindery-app'), '#!/bin/sh\necho "app $*"\n', { mode: 0o755 });
}

function context(overrides: Partial<CliInstallContext> = {}): CliInstallContext {
  return {
    platform: 'linux',
    resourcesPath: resources,
    homeDir: home,
    pathEnv: '/usr/bin:/bin',
    ...overrides,
  };
}

beforeEach(() => {
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-install-cli-')));
  home = path.join(work, 'home');
  resources = path.join(work, 'opt', 'Bindery', 'resources');
  fs.mkdirSync(home, { recursive: true });
});

afterEach(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe('installCli on Linux and macOS', () => {
  it('links ~/.local/bin/bindery to the shipped launcher, which runs the app with --cli', async () => {
    fakeInstalledApp();
    const result = await installCli(context());
    const command = path.join(home, '.local', 'bin', 'bindery');
    expect(result.command).toBe(command);
    expect(fs.readlinkSync(command)).toBe(launcherPath(resources, 'linux'));
    const { stdout } = await run(command, ['resources', 'list', '--json'], {
      env: { PATH: process.env.PATH, DISPLAY: ':0' },
    });
    expect(stdout.trim()).toBe(`app ${asRoot}--cli resources list --json`);
  });

  it('tells Chromium not to look for a display when there is none', async () => {
    fakeInstalledApp();
    const { command } = await installCli(context());
    const { stdout } = await run(command, ['doctor'], { env: { PATH: process.env.PATH } });
    expect(stdout.trim()).toBe(`app ${asRoot}--ozone-platform=headless --cli doctor`);
  });

  it('says when the folder is not on PATH and how to add it', async () => {
    fakeInstalledApp();
    const off = await installCli(context());
    expect(off.onPath).toBe(false);
    expect(off.message).toContain('export PATH=');
    const on = await installCli(context({ pathEnv: `/usr/bin:${path.join(home, '.local', 'bin')}/` }));
    expect(on.onPath).toBe(true);
    expect(on.message).not.toContain('export PATH=');
  });

  it("replaces the link of another Bindery install but refuses a file that is not Bindery's", async () => {
    fakeInstalledApp();
    const bin = path.join(home, '.local', 'bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.symlinkSync('/Applications/Old Bindery.app/Contents/Resources/bin/bindery', path.join(bin, 'bindery'));
    await installCli(context());
    expect(fs.readlinkSync(path.join(bin, 'bindery'))).toBe(launcherPath(resources, 'linux'));

    fs.rmSync(path.join(bin, 'bindery'));
    fs.writeFileSync(path.join(bin, 'bindery'), '#!/bin/sh\necho someone else\n');
    await expect(installCli(context())).rejects.toBeInstanceOf(ConflictError);
    expect(fs.readFileSync(path.join(bin, 'bindery'), 'utf8')).toContain('someone else');
  });

  it('skips a system folder that does not exist rather than creating it', async () => {
    fakeInstalledApp();
    const missingSystem = path.join(work, 'usr-local-bin');
    const result = await installCli(context({ binDirs: [missingSystem, path.join(home, 'bin')] }));
    expect(fs.existsSync(missingSystem)).toBe(false);
    expect(result.command).toBe(path.join(home, 'bin', 'bindery'));
  });

  it('refuses in a source checkout, where no launcher ships', async () => {
    await expect(installCli(context())).rejects.toBeInstanceOf(ValidationError);
  });

  it('writes a script that runs the AppImage itself, whose mounted files vanish on exit', async () => {
    const appImage = path.join(work, "Bindery's 0.1.0.AppImage");
    fs.writeFileSync(appImage, '#!/bin/sh\necho "appimage $*"\n', { mode: 0o755 });
    const { command } = await installCli(context({ appImage }));
    expect(fs.lstatSync(command).isSymbolicLink()).toBe(false);
    const { stdout } = await run(command, ['plans', 'list'], {
      env: { PATH: process.env.PATH, WAYLAND_DISPLAY: 'wayland-0' },
    });
    expect(stdout.trim()).toBe(`appimage ${asRoot}--cli plans list`);
    // A second install replaces its own script.
    await installCli(context({ appImage }));
  });

  it("uninstalls only what is Bindery's", async () => {
    fakeInstalledApp();
    const other = path.join(work, 'other-bin');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'bindery'), 'not ours');
    const { command } = await installCli(context());
    const removed = await uninstallCli(context({ binDirs: [path.dirname(command), other] }));
    expect(removed).toEqual([command]);
    expect(fs.existsSync(path.join(other, 'bindery'))).toBe(true);
  });

  it('prefers /usr/local/bin on macOS and ~/.local/bin on Linux', () => {
    expect(defaultBinDirs('darwin', '/Users/me')).toEqual(['/usr/local/bin', '/Users/me/.local/bin']);
    expect(defaultBinDirs('linux', '/home/me')).toEqual(['/home/me/.local/bin', '/usr/local/bin']);
  });
});

describe('installCli on Windows', () => {
  function fakePowerShell(initial: string) {
    const state = { userPath: initial, writes: 0 };
    const runner = async (script: string, env: Record<string, string>) => {
      if (script.includes('SetEnvironmentVariable')) {
        state.userPath = env.BINDERY_USER_PATH!;
        state.writes += 1;
        return '';
      }
      return `${state.userPath}\r\n`;
    };
    return { state, runner };
  }

  it('adds resources\\bin to the user PATH once, and removes it again', async () => {
    fs.mkdirSync(path.join(resources, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(resources, 'bin', 'bindery.cmd'), '@echo off\r\n');
    const shell = fakePowerShell('C:\\Tools;C:\\Users\\me\\bin');
    const windows = context({ platform: 'win32' });
    const result = await installCli(windows, shell.runner);
    expect(shell.state.userPath).toBe(`C:\\Tools;C:\\Users\\me\\bin;${path.join(resources, 'bin')}`);
    expect(result.onPath).toBe(true);
    await installCli(windows, shell.runner);
    expect(shell.state.writes).toBe(1);
    expect(await uninstallCli(windows, shell.runner)).toEqual([path.join(resources, 'bin')]);
    expect(shell.state.userPath).toBe('C:\\Tools;C:\\Users\\me\\bin');
  });
});

describe('PATH values', () => {
  it('compares entries like the platform does', () => {
    expect(isOnPath('/home/me/.local/bin', '/usr/bin:/home/me/.local/bin/', 'linux')).toBe(true);
    expect(isOnPath('/home/me/.local/bin', '/usr/bin:/home/me/.local', 'linux')).toBe(false);
    expect(isOnPath('/Home/Me/bin', '/home/me/bin', 'darwin')).toBe(false);
    expect(
      isOnPath(
        'C:\\Program Files\\Bindery\\resources\\bin',
        'c:\\program files\\bindery\\RESOURCES\\bin\\;C:\\x',
        'win32',
      ),
    ).toBe(true);
  });

  it('adds and removes a Windows entry without touching the others', () => {
    expect(withPathEntry('', 'C:\\b')).toBe('C:\\b');
    expect(withPathEntry('C:\\a;;C:\\b\\', 'c:\\B')).toBeNull();
    expect(withPathEntry('C:\\a;', 'C:\\b')).toBe('C:\\a;C:\\b');
    expect(withoutPathEntry('C:\\a;C:\\B\\;C:\\c', 'c:\\b')).toBe('C:\\a;C:\\c');
    expect(withoutPathEntry('C:\\a', 'C:\\b')).toBeNull();
  });
});
