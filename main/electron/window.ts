/**
 * Creates the main window from mainWindowOptions, loads the renderer, remembers its bounds and
 * denies every navigation and new window (links go out through the https-only opener).
 */
import { BrowserWindow, screen, shell, type WebContents } from 'electron';
import { isSafeExternalUrl } from './external-url.ts';
import { mainWindowOptions } from './window-options.ts';
import { fitToDisplays, loadWindowState, saveWindowState } from './window-state.ts';

/** Opens an https URL in the user's browser; anything else is refused. */
export async function safeOpenExternal(url: string): Promise<boolean> {
  if (!isSafeExternalUrl(url)) return false;
  await shell.openExternal(url);
  return true;
}

/** Denies navigation, redirects, new windows and webviews for one webContents. */
export function lockDownContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void safeOpenExternal(url);
    return { action: 'deny' };
  });
}

/** Creates, shows and loads the main window. */
export function createMainWindow(input: { dataDir: string; preload: string; indexFile: string; dark: boolean }): BrowserWindow {
  const saved = fitToDisplays(
    loadWindowState(input.dataDir),
    screen.getAllDisplays().map((display) => display.workArea),
  );
  const window = new BrowserWindow(mainWindowOptions({ preload: input.preload, bounds: saved, dark: input.dark }));
  if (saved.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => {
    const bounds = window.getNormalBounds();
    try {
      saveWindowState(input.dataDir, { ...bounds, maximized: window.isMaximized() });
    } catch {
      // Remembering the size is a convenience; failing to must not block closing.
    }
  });
  void window.loadFile(input.indexFile);
  return window;
}
