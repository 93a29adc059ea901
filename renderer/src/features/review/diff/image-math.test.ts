import { describe, expect, it } from 'vitest';
import { diffPixels, diffSummary, fitScale, placement, stackBox } from './image-math.ts';

const rgba = (...pixels: number[][]) => new Uint8ClampedArray(pixels.flat());

describe('image layout', () => {
  it('stacks two images in a box of the larger sides, each centred', () => {
    const box = stackBox({ width: 100, height: 40 }, { width: 60, height: 80 });
    expect(box).toEqual({ width: 100, height: 80 });
    expect(placement({ width: 60, height: 80 }, box)).toEqual({ left: 20, top: 0, width: 60, height: 100 });
    expect(stackBox(null, null)).toEqual({ width: 1, height: 1 });
  });

  it('shrinks to fit and enlarges only up to the limit', () => {
    expect(fitScale({ width: 2000, height: 1000 }, { width: 1000, height: 800 })).toBe(0.5);
    expect(fitScale({ width: 16, height: 16 }, { width: 1000, height: 800 })).toBe(1);
    expect(fitScale({ width: 16, height: 16 }, { width: 1000, height: 800 }, 8)).toBe(8);
  });
});

describe('diffPixels', () => {
  it('is black where pixels agree and |a - b| where they differ', () => {
    const a = rgba([10, 20, 30, 255], [255, 0, 0, 255], [0, 0, 0, 0]);
    const b = rgba([10, 20, 30, 255], [0, 0, 255, 255], [0, 0, 0, 255]);
    const out = new Uint8ClampedArray(a.length);
    expect(diffPixels(a, b, out)).toBe(2);
    expect(Array.from(out)).toEqual([0, 0, 0, 255, 255, 0, 255, 255, 0, 0, 0, 255]);
  });

  it('treats fully transparent pixels as equal whatever their colour', () => {
    const out = new Uint8ClampedArray(4);
    expect(diffPixels(rgba([255, 0, 0, 0]), rgba([0, 255, 0, 0]), out)).toBe(0);
    // A change of opacity alone is a change.
    expect(diffPixels(rgba([9, 9, 9, 255]), rgba([9, 9, 9, 128]), out)).toBe(1);
  });

  it('summarises the count', () => {
    expect(diffSummary(0, 100)).toBe('No pixel differs');
    expect(diffSummary(1, 100)).toBe('1 pixel differs (1.0%)');
    expect(diffSummary(1234, 10_000)).toBe('1,234 pixels differ (12.3%)');
    expect(diffSummary(1, 10_000_000)).toBe('1 pixel differs (<0.1%)');
  });
});
