import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { DEFAULT_BOUNDS, fitToDisplays, loadWindowState, saveWindowState, WINDOW_STATE_FILE } from './window-state.ts';

describe('window state', () => {
  it('round-trips through an atomically written file', () => {
    const dir = path.join(tempDir(), 'data');
    saveWindowState(dir, { x: 5, y: 6, width: 1000, height: 700, maximized: true });
    expect(loadWindowState(dir)).toEqual({ x: 5, y: 6, width: 1000, height: 700, maximized: true });
    expect(fs.readdirSync(dir)).toEqual([WINDOW_STATE_FILE]);
  });

  it('falls back to defaults for a missing, corrupt or absurd file', () => {
    const dir = tempDir();
    expect(loadWindowState(dir)).toEqual(DEFAULT_BOUNDS);
    for (const text of ['{', '[]', '{"width":"big","height":700}', '{"width":10,"height":10}', '{"width":1e9,"height":700}']) {
      fs.writeFileSync(path.join(dir, WINDOW_STATE_FILE), text);
      expect(loadWindowState(dir), text).toEqual(DEFAULT_BOUNDS);
    }
  });

  it('drops a position that is on no display any more', () => {
    const displays = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    expect(fitToDisplays({ x: 100, y: 100, width: 800, height: 600 }, displays)).toEqual({ x: 100, y: 100, width: 800, height: 600 });
    expect(fitToDisplays({ x: 3000, y: 100, width: 800, height: 600, maximized: true }, displays)).toEqual({ width: 800, height: 600, maximized: true });
    expect(fitToDisplays({ x: -50, y: 10, width: 800, height: 600 }, displays).x).toBe(-50);
  });
});
