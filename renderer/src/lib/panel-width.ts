/**
 * The width of a resizable side panel: kept within bounds, moved by keys as a separator is in
 * ARIA's pattern, and remembered between sessions under a key (a bad stored value is ignored).
 */

/** Bounds and the width used when nothing is stored. */
export interface WidthBounds {
  min: number;
  max: number;
  initial: number;
}

/** `width` rounded and held between `min` and `max`. */
export function clampWidth(width: number, bounds: WidthBounds): number {
  if (!Number.isFinite(width)) return bounds.initial;
  return Math.round(Math.min(bounds.max, Math.max(bounds.min, width)));
}

/**
 * The width after a key on the separator (arrows move 16 px, 64 with Shift; Home and End go to
 * the bounds), or null for a key the separator does not take.
 */
export function widthAfterKey(
  width: number,
  key: string,
  shift: boolean,
  bounds: WidthBounds,
): number | null {
  const step = shift ? 64 : 16;
  if (key === 'ArrowLeft') return clampWidth(width - step, bounds);
  if (key === 'ArrowRight') return clampWidth(width + step, bounds);
  if (key === 'Home') return bounds.min;
  if (key === 'End') return bounds.max;
  return null;
}

/** The stored width, or the initial one when none (or nonsense) is stored. */
export function readWidth(storage: Pick<Storage, 'getItem'> | null, key: string, bounds: WidthBounds): number {
  const raw = storage?.getItem(key) ?? null;
  const value = raw === null || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isFinite(value) ? clampWidth(value, bounds) : bounds.initial;
}
