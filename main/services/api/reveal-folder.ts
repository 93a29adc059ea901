/**
 * Opens a folder in the operating system's file manager, for "open folder" on the plan page in
 * the desktop app. The path is a sandbox path from the registry, passed as one argument, never
 * through a shell.
 */
import { spawn } from 'node:child_process';

/** The file manager command of a platform and its arguments for one folder. */
export function openerFor(platform: NodeJS.Platform, folder: string): [string, string[]] {
  if (platform === 'darwin') return ['open', [folder]];
  if (platform === 'win32') return ['explorer.exe', [folder]];
  return ['xdg-open', [folder]];
}

/** Starts the file manager on `folder` and does not wait for it; resolves false when it cannot start. */
export function openFolder(folder: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const [command, args] = openerFor(platform, folder);
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
