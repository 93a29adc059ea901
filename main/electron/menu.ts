/** Turns the menu template (menu-template.ts) into Electron's application menu. */
import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../../shared/events.ts';
import { menuTemplate, type MainAction, type MenuEntry } from './menu-template.ts';

/** Installs the application menu; commands go to `send`, main-process actions to `act`. */
export function installMenu(platform: NodeJS.Platform, send: (command: MenuCommand) => void, act: (action: MainAction) => void): void {
  const convert = (entry: MenuEntry & { role?: string; submenu?: MenuEntry[] }): MenuItemConstructorOptions => {
    if ('type' in entry) return { type: 'separator' };
    if ('command' in entry) return { label: entry.label, accelerator: entry.accelerator, click: () => send(entry.command) };
    if ('action' in entry) return { label: entry.label, click: () => act(entry.action) };
    const submenu = entry.submenu && entry.submenu.length > 0 ? entry.submenu.map(convert) : undefined;
    return {
      ...(entry.label ? { label: entry.label } : {}),
      ...(entry.role ? { role: entry.role as MenuItemConstructorOptions['role'] } : {}),
      ...(submenu ? { submenu } : {}),
    };
  };
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(platform).map(convert)));
}
