/**
 * The arithmetic of comparing two images: the box both are drawn in (the larger of each side),
 * where each sits in it (centred), how far the box scales down to fit, and the per-pixel
 * difference the "Difference" mode draws.
 */

/** A size in pixels. */
export interface Size {
  width: number;
  height: number;
}

/** Where an image sits in the box, as percentages of the box (so the stage can scale freely). */
export interface Placement {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The box that holds both images: the larger width and the larger height. */
export function stackBox(a: Size | null, b: Size | null): Size {
  return {
    width: Math.max(a?.width ?? 0, b?.width ?? 0, 1),
    height: Math.max(a?.height ?? 0, b?.height ?? 0, 1),
  };
}

/** An image centred in the box, in percent. */
export function placement(size: Size, box: Size): Placement {
  return {
    left: ((box.width - size.width) / 2 / box.width) * 100,
    top: ((box.height - size.height) / 2 / box.height) * 100,
    width: (size.width / box.width) * 100,
    height: (size.height / box.height) * 100,
  };
}

/** The scale that fits `box` in `room`, never above `maxUpscale` (1: small images stay actual size). */
export function fitScale(box: Size, room: Size, maxUpscale = 1): number {
  if (room.width <= 0 || room.height <= 0) return 1;
  return Math.min(maxUpscale, room.width / box.width, room.height / box.height);
}

/**
 * Writes |a - b| of premultiplied colours into `out` (opaque: black where the pixels agree) and
 * returns how many pixels differ at all. All three arrays are RGBA of the same size.
 */
export function diffPixels(a: Uint8ClampedArray, b: Uint8ClampedArray, out: Uint8ClampedArray): number {
  let changed = 0;
  for (let i = 0; i < out.length; i += 4) {
    const aa = (a[i + 3] ?? 0) / 255;
    const ba = (b[i + 3] ?? 0) / 255;
    let same = a[i + 3] === b[i + 3];
    for (let c = 0; c < 3; c++) {
      const av = a[i + c] ?? 0;
      const bv = b[i + c] ?? 0;
      if (av !== bv && (aa > 0 || ba > 0)) same = false;
      out[i + c] = Math.abs(av * aa - bv * ba);
    }
    out[i + 3] = 255;
    if (!same) changed++;
  }
  return changed;
}

/** "1,234 pixels differ (3.2%)", or that none does. */
export function diffSummary(changed: number, total: number): string {
  if (changed === 0) return 'No pixel differs';
  const share = (changed / total) * 100;
  const percent = share < 0.1 ? '<0.1' : share >= 99.95 ? '100' : share.toFixed(1);
  return `${changed.toLocaleString('en-US')} ${changed === 1 ? 'pixel differs' : 'pixels differ'} (${percent}%)`;
}
