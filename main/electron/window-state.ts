/**
 * The main window's position and size, remembered across starts in a JSON file of the data
 * directory, written atomically (temp file + rename) so a crash never leaves half a file.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Where and how big the window was. */
export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized?: boolean;
}

/** A display's usable area. */
export interface DisplayArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The file name inside the data directory. */
export const WINDOW_STATE_FILE = 'window-state.json';

/** The size of a first start. */
export const DEFAULT_BOUNDS: WindowBounds = { width: 1280, height: 800 };

/** Reads the saved bounds; anything missing, unreadable or nonsensical gives the defaults. */
export function loadWindowState(dataDir: string): WindowBounds {
  try {
    const raw = JSON.parse(fs.readFileSync(path.join(dataDir, WINDOW_STATE_FILE), 'utf8')) as Record<string, unknown>;
    const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : undefined);
    const width = num(raw.width);
    const height = num(raw.height);
    if (!width || !height || width < 200 || height < 200 || width > 20_000 || height > 20_000) return { ...DEFAULT_BOUNDS };
    const x = num(raw.x);
    const y = num(raw.y);
    return { ...(x !== undefined && y !== undefined ? { x, y } : {}), width, height, maximized: raw.maximized === true };
  } catch {
    return { ...DEFAULT_BOUNDS };
  }
}

/** Writes the bounds atomically. */
export function saveWindowState(dataDir: string, bounds: WindowBounds): void {
  const file = path.join(dataDir, WINDOW_STATE_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(temp, `${JSON.stringify(bounds, null, 2)}\n`);
  fs.renameSync(temp, file);
}

/**
 * Keeps saved bounds only if the window would still be visible (a monitor may have been
 * unplugged); otherwise drops the position so the OS centres it.
 */
export function fitToDisplays(bounds: WindowBounds, displays: readonly DisplayArea[]): WindowBounds {
  if (bounds.x === undefined || bounds.y === undefined) return bounds;
  const { x, y } = bounds;
  // The title bar's top-left 100x40 must be on some display to grab the window.
  const visible = displays.some((d) => x + 100 > d.x && x < d.x + d.width && y + 40 > d.y && y < d.y + d.height);
  if (visible) return bounds;
  return { width: bounds.width, height: bounds.height, ...(bounds.maximized ? { maximized: true } : {}) };
}
