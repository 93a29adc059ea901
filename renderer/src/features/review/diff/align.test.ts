import { describe, expect, it } from 'vitest';
import { alignBlock, MAX_ALIGN_CELLS, similarity } from './align.ts';
import { seededRandom } from './test-texts.ts';

describe('similarity', () => {
  it('is 1 for equal lines (outer whitespace ignored) and 0 for unrelated ones', () => {
    expect(similarity('  return x;', 'return x;\t')).toBe(1);
    expect(similarity('', '   ')).toBe(1);
    expect(similarity('abc', 'xyz')).toBe(0);
    expect(similarity('a', 'b')).toBe(0);
  });

  it('ranks a small edit above a different line', () => {
    const edited = similarity(
      'export function formatDate(d: Date) {',
      'export function formatDate(date: Date) {',
    );
    const other = similarity('export function formatDate(d: Date) {', '/** YYYY-MM-DD in UTC. */');
    expect(edited).toBeGreaterThan(0.8);
    expect(other).toBeLessThan(0.3);
  });
});

describe('alignBlock', () => {
  it('pairs by position when there is nothing better', () => {
    expect(alignBlock(['a', 'b'], ['x', 'y', 'z'])).toEqual([
      [0, 0],
      [1, 1],
      [-1, 2],
    ]);
    expect(alignBlock(['a'], ['b'])).toEqual([[0, 0]]);
    expect(alignBlock([], ['b'])).toEqual([[-1, 0]]);
    expect(alignBlock(['a'], [])).toEqual([[0, -1]]);
  });

  it('keeps an edited line facing its old version when a line is inserted above it', () => {
    const oldLines = [
      'export function formatDate(d: Date): string {',
      '  return d.toISOString().slice(0, 10);',
    ];
    const newLines = [
      '/** YYYY-MM-DD in UTC. */',
      'export function formatDate(date: Date): string {',
      '  return date.toISOString().slice(0, 10);',
    ];
    expect(alignBlock(oldLines, newLines)).toEqual([
      [-1, 0],
      [0, 1],
      [1, 2],
    ]);
  });

  it('lets a deleted line stand alone when the rest moved on', () => {
    const oldLines = ['const a = compute(1);', 'log("removed debug line");', 'const b = compute(2);'];
    const newLines = ['const a = compute(10);', 'const b = compute(20);'];
    expect(alignBlock(oldLines, newLines)).toEqual([
      [0, 0],
      [1, -1],
      [2, 1],
    ]);
  });

  it('falls back to positions for very large blocks', () => {
    const side = Math.ceil(Math.sqrt(MAX_ALIGN_CELLS)) + 1;
    const oldLines = Array.from({ length: side }, (_, i) => `line ${i}`);
    const newLines = ['inserted', ...oldLines.map((l) => `${l}!`)];
    const rows = alignBlock(oldLines, newLines);
    expect(rows[0]).toEqual([0, 0]);
  });

  it('lists every line once and in order, for 300 random blocks', () => {
    const random = seededRandom(12);
    const pool = ['const a = 1;', 'const a = 2;', 'return a;', 'return b;', '}', '', 'if (x) {', 'if (y) {'];
    for (let trial = 0; trial < 300; trial++) {
      const pick = () =>
        Array.from(
          { length: Math.floor(random() * 8) },
          () => pool[Math.floor(random() * pool.length)] as string,
        );
      const oldLines = pick();
      const newLines = pick();
      const rows = alignBlock(oldLines, newLines);
      expect(rows.map(([i]) => i).filter((i) => i >= 0)).toEqual(oldLines.map((_, i) => i));
      expect(rows.map(([, j]) => j).filter((j) => j >= 0)).toEqual(newLines.map((_, j) => j));
      expect(rows.every(([i, j]) => i >= 0 || j >= 0)).toBe(true);
    }
  });
});
