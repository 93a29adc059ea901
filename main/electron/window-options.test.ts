import { describe, expect, it } from 'vitest';
import { mainWindowOptions, MIN_SIZE } from './window-options.ts';

describe('mainWindowOptions', () => {
  const options = mainWindowOptions({ preload: '/app/out/preload/preload.cjs', bounds: { x: 10, y: 20, width: 1280, height: 800 }, dark: false });

  it('isolates and sandboxes the renderer, with no Node and web security on', () => {
    expect(options.webPreferences).toEqual({
      preload: '/app/out/preload/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    });
  });

  it('restores the position and size, never below the minimum, and waits for ready-to-show', () => {
    expect(options).toMatchObject({ x: 10, y: 20, width: 1280, height: 800, show: false });
    const tiny = mainWindowOptions({ preload: 'p', bounds: { width: 300, height: 200 }, dark: true });
    expect(tiny).toMatchObject({ width: MIN_SIZE.width, height: MIN_SIZE.height });
    expect(tiny).not.toHaveProperty('x');
    expect(tiny.backgroundColor).not.toBe(options.backgroundColor);
  });
});
