/**
 * The application menu as data: labels, shortcuts and either a standard role or a command sent
 * to the renderer. No Electron import; menu.ts turns it into a Menu.
 */
import type { MenuCommand } from '../../shared/events.ts';

/** Work the main process does itself (nothing for the renderer to show first). */
export type MainAction = 'install-cli' | 'uninstall-cli';

/** One menu entry. */
export type MenuEntry =
  | { type: 'separator' }
  | { label: string; accelerator?: string; command: MenuCommand }
  | { label: string; action: MainAction }
  | { label?: string; role: string }
  | { label: string; submenu: MenuEntry[] };

/** The menu for `platform` (macOS has the app menu first and Cmd shortcuts). */
export function menuTemplate(platform: NodeJS.Platform): Array<{ label: string; role?: string; submenu: MenuEntry[] }> {
  const mac = platform === 'darwin';
  const sep = { type: 'separator' } as const;
  const appMenu = { label: 'Bindery', submenu: [{ role: 'about' }, sep, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, sep, { role: 'quit' }] };
  return [
    ...(mac ? [appMenu] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Register Folder…', accelerator: 'CmdOrCtrl+O', command: 'register-folder' },
        { label: 'Import Tool…', accelerator: 'CmdOrCtrl+I', command: 'import-tool' },
        { label: 'New Project…', accelerator: 'CmdOrCtrl+N', command: 'new-project' },
        sep,
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { label: 'Edit', role: 'editMenu', submenu: [] },
    {
      label: 'View',
      submenu: [
        { label: 'Resource Types', accelerator: 'CmdOrCtrl+1', command: 'show-types' },
        { label: 'Resources', accelerator: 'CmdOrCtrl+2', command: 'show-resources' },
        { label: 'Projects', accelerator: 'CmdOrCtrl+3', command: 'show-projects' },
        { label: 'Tools', accelerator: 'CmdOrCtrl+4', command: 'show-tools' },
        sep,
        { label: 'Refresh', accelerator: 'CmdOrCtrl+R', command: 'refresh' },
        { label: 'Find', accelerator: 'CmdOrCtrl+F', command: 'focus-search' },
        sep,
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        sep,
        { role: 'togglefullscreen' },
        { role: 'toggleDevTools' },
      ],
    },
    { label: 'Window', role: 'windowMenu', submenu: [] },
    {
      label: 'Help',
      role: 'help',
      submenu: [
        { label: 'Run Health Check', command: 'doctor' },
        sep,
        { label: "Install 'bindery' Command…", action: 'install-cli' },
        { label: "Uninstall 'bindery' Command", action: 'uninstall-cli' },
        sep,
        { label: 'About Bindery', command: 'about' },
      ],
    },
  ];
}
