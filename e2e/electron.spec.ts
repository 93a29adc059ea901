/** Electron only: the window's security settings, the preload's surface, and denied navigation. */
import { expect, test } from './fixtures.ts';
import { METHOD_NAMES } from '../shared/contract.ts';

test.describe('electron window', () => {
  test.beforeEach(({ hostKind }) => {
    test.skip(hostKind !== 'electron', 'Electron-only checks');
  });

  test('runs the renderer isolated and sandboxed, without Node', async ({ app }) => {
    // getLastWebPreferences is undocumented in recent typings but still present at run time.
    const prefs = await app.electron!.evaluate(({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents as unknown as { getLastWebPreferences?: () => Record<string, unknown> | null };
      const p = contents.getLastWebPreferences?.();
      return p ? { contextIsolation: p.contextIsolation, sandbox: p.sandbox, nodeIntegration: p.nodeIntegration, webSecurity: p.webSecurity, webviewTag: p.webviewTag } : null;
    });
    if (prefs) expect(prefs).toEqual({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(await app.page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    expect(await app.page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
  });

  test('exposes one function per contract method and no generic invoke', async ({ app }) => {
    const keys = await app.page.evaluate(() => Object.keys((globalThis as unknown as { bindery: object }).bindery).sort());
    expect(keys).toEqual(expect.arrayContaining([...METHOD_NAMES]));
    expect(keys).not.toContain('invoke');
    expect(await app.page.evaluate(() => (globalThis as unknown as { bindery: { listTypes(): Promise<{ ok: boolean }> } }).bindery.listTypes().then((r) => r.ok))).toBe(true);
  });

  test('denies new windows and navigation away from the app', async ({ app }) => {
    const before = app.page.url();
    expect(await app.page.evaluate(() => (globalThis as unknown as { open(url: string): unknown }).open('https://example.com') === null)).toBe(true);
    await app.page.evaluate(() => {
      (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/';
    });
    await app.page.waitForTimeout(500);
    expect(app.page.url()).toBe(before);
    expect(await app.electron!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });
});
