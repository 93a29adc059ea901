import { describe, expect, it } from 'vitest';
import { clampWidth, readWidth, widthAfterKey } from './panel-width.ts';

const BOUNDS = { min: 200, max: 600, initial: 296 };

function storage(values: Record<string, string>): Pick<Storage, 'getItem'> {
  return { getItem: (key) => values[key] ?? null };
}

describe('panel width', () => {
  it('holds widths within bounds', () => {
    expect(clampWidth(100, BOUNDS)).toBe(200);
    expect(clampWidth(900, BOUNDS)).toBe(600);
    expect(clampWidth(300.6, BOUNDS)).toBe(301);
    expect(clampWidth(Number.NaN, BOUNDS)).toBe(296);
  });

  it('moves by keys like an ARIA separator', () => {
    expect(widthAfterKey(300, 'ArrowRight', false, BOUNDS)).toBe(316);
    expect(widthAfterKey(300, 'ArrowLeft', true, BOUNDS)).toBe(236);
    expect(widthAfterKey(210, 'ArrowLeft', false, BOUNDS)).toBe(200);
    expect(widthAfterKey(300, 'Home', false, BOUNDS)).toBe(200);
    expect(widthAfterKey(300, 'End', false, BOUNDS)).toBe(600);
    expect(widthAfterKey(300, 'a', false, BOUNDS)).toBeNull();
  });

  it('reads a stored width and ignores nonsense', () => {
    expect(readWidth(storage({ w: '420' }), 'w', BOUNDS)).toBe(420);
    expect(readWidth(storage({ w: '9000' }), 'w', BOUNDS)).toBe(600);
    expect(readWidth(storage({ w: 'wide' }), 'w', BOUNDS)).toBe(296);
    expect(readWidth(storage({ w: '' }), 'w', BOUNDS)).toBe(296);
    expect(readWidth(storage({}), 'w', BOUNDS)).toBe(296);
    expect(readWidth(null, 'w', BOUNDS)).toBe(296);
  });
});
