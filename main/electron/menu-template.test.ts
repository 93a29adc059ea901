import { describe, expect, it } from 'vitest';
import { MENU_COMMANDS } from '../../shared/events.ts';
import { menuTemplate, type MenuEntry } from './menu-template.ts';

function entries(items: MenuEntry[]): MenuEntry[] {
  return items.flatMap((item) => ['submenu' in item ? entries(item.submenu) : [], [item]].flat());
}

describe('menuTemplate', () => {
  it.each(['linux', 'win32', 'darwin'] as const)('on %s: every command is reachable and shortcuts are unique', (platform) => {
    const all = entries(menuTemplate(platform).flatMap((menu) => menu.submenu));
    const commands = all.filter((e): e is Extract<MenuEntry, { command: string }> => 'command' in e);
    expect(new Set(commands.map((c) => c.command))).toEqual(new Set(MENU_COMMANDS));
    const accelerators = commands.map((c) => c.accelerator).filter(Boolean);
    expect(new Set(accelerators).size).toBe(accelerators.length);
  });

  it('offers installing and removing the bindery command', () => {
    const actions = entries(menuTemplate('linux').flatMap((menu) => menu.submenu)).filter((e) => 'action' in e);
    expect(actions.map((e) => ('action' in e ? e.action : null))).toEqual(['install-cli', 'uninstall-cli']);
  });

  it('puts the app menu first on macOS only', () => {
    expect(menuTemplate('darwin')[0]?.label).toBe('Bindery');
    expect(menuTemplate('linux')[0]?.label).toBe('File');
  });
});
