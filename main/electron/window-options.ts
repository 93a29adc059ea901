/**
 * The main window's options as plain data (no Electron import), so the security settings are
 * asserted in a unit test: isolated, sandboxed, no Node in the page, web security on.
 */
import type { WindowBounds } from './window-state.ts';

/** The subset of BrowserWindow options Bindery sets. */
export interface MainWindowOptions {
  x?: number;
  y?: number;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  backgroundColor: string;
  webPreferences: {
    preload: string;
    contextIsolation: true;
    sandbox: true;
    nodeIntegration: false;
    nodeIntegrationInWorker: false;
    nodeIntegrationInSubFrames: false;
    webSecurity: true;
    allowRunningInsecureContent: false;
    webviewTag: false;
    experimentalFeatures: false;
    navigateOnDragDrop: false;
    safeDialogs: true;
    spellcheck: false;
  };
}

/** Smallest size at which the screens stay usable. */
export const MIN_SIZE = { width: 900, height: 600 };

/** Options for the main window at `bounds`, with the preload at `preload`. */
export function mainWindowOptions(input: { preload: string; bounds: WindowBounds; dark: boolean }): MainWindowOptions {
  const { bounds } = input;
  return {
    ...(bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    width: Math.max(bounds.width, MIN_SIZE.width),
    height: Math.max(bounds.height, MIN_SIZE.height),
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    // Shown on ready-to-show, so the window never flashes empty.
    show: false,
    title: 'Bindery',
    backgroundColor: input.dark ? '#1e1f22' : '#ffffff',
    webPreferences: {
      preload: input.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      // Dropping a folder must reach the page's drop handler, never navigate the window.
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  };
}
