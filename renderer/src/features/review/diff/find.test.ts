import { describe, expect, it } from 'vitest';
import { buildRows, expandGap, initialVisibility } from './diff-rows.ts';
import { displayOrder, findCountLabel, findMatches, hitsByLine, revealLine, rowsByLine } from './find.ts';
import { computeLineDiff } from './line-diff.ts';

const numbered = (n: number, edit?: (i: number) => string | null) =>
  Array.from({ length: n }, (_, i) => edit?.(i) ?? `line ${i + 1}`).join('\n') + '\n';

describe('findMatches', () => {
  it('finds every occurrence, case-insensitively, on both sides', () => {
    const diff = computeLineDiff('const Foo = 1;\nfoo();\n', 'const FOO = 2;\nfoo(); // foo\n');
    const { matches, capped } = findMatches(diff, 'foo', 'unified');
    expect(capped).toBe(false);
    expect(matches.map((m) => [diff.lines[m.line]?.text.slice(m.start, m.end), m.line])).toEqual([
      ['Foo', 0],
      ['foo', 1],
      ['FOO', 2],
      ['foo', 3],
      ['foo', 3],
    ]);
  });

  it('treats the query as plain text, not a pattern', () => {
    const diff = computeLineDiff('a.b\naxb\n(x)*\n', 'a.b\n');
    expect(findMatches(diff, 'a.b', 'unified').matches).toHaveLength(1);
    expect(findMatches(diff, '(x)*', 'unified').matches).toEqual([{ line: 2, start: 0, end: 4 }]);
  });

  it('finds nothing for an empty query and caps a huge count', () => {
    const diff = computeLineDiff('', 'aaaa\n'.repeat(10));
    expect(findMatches(diff, '', 'unified').matches).toEqual([]);
    const capped = findMatches(diff, 'a', 'unified', { limit: 25 });
    expect(capped).toMatchObject({ capped: true });
    expect(capped.matches).toHaveLength(25);
    expect(findCountLabel(2, capped, 'a')).toBe('3 of 25+');
  });

  it('searches only the drawn part of a very long line', () => {
    const diff = computeLineDiff('', `${'x'.repeat(50)}needle\n`);
    expect(findMatches(diff, 'needle', 'unified', { maxChars: 40 }).matches).toEqual([]);
    expect(findMatches(diff, 'needle', 'unified').matches).toHaveLength(1);
  });

  it('side by side, walks a change block row by row, old half first', () => {
    // Two replaced lines: unified order is del, del, add, add; split order pairs them.
    const diff = computeLineDiff('hit one\nhit two\n', 'hit uno\nhit dos\n');
    const unified = findMatches(diff, 'hit', 'unified').matches.map((m) => diff.lines[m.line]?.text);
    const split = findMatches(diff, 'hit', 'split').matches.map((m) => diff.lines[m.line]?.text);
    expect(unified).toEqual(['hit one', 'hit two', 'hit uno', 'hit dos']);
    expect(split).toEqual(['hit one', 'hit uno', 'hit two', 'hit dos']);
    expect(Array.from(displayOrder(diff, 'unified'))).toEqual([0, 1, 2, 3]);
  });
});

describe('hitsByLine and findCountLabel', () => {
  it('groups sorted ranges by line', () => {
    const hits = hitsByLine([
      { line: 3, start: 5, end: 7 },
      { line: 1, start: 0, end: 2 },
      { line: 3, start: 0, end: 2 },
    ]);
    expect(hits.get(3)).toEqual([
      { start: 0, end: 2 },
      { start: 5, end: 7 },
    ]);
    expect(hits.get(1)).toEqual([{ start: 0, end: 2 }]);
  });

  it('says "3 of 12", "No results" or nothing', () => {
    const result = { matches: Array.from({ length: 12 }, (_, i) => ({ line: i, start: 0, end: 1 })), capped: false };
    expect(findCountLabel(2, result, 'x')).toBe('3 of 12');
    expect(findCountLabel(-1, result, 'x')).toBe('12 found');
    expect(findCountLabel(-1, { matches: [], capped: false }, 'x')).toBe('No results');
    expect(findCountLabel(-1, { matches: [], capped: false }, '')).toBe('');
  });
});

describe('context expansion and revealing a match', () => {
  const diff = computeLineDiff(numbered(100), numbered(100, (i) => (i === 49 ? 'changed' : null)));

  it('expands 20 lines at a time above and below a hunk, or the whole gap', () => {
    const visible = initialVisibility(diff);
    const gaps = buildRows(diff, visible, 'unified').rows.flatMap((row) =>
      row.type === 'hunk' || row.type === 'gap' ? (row.gap ? [row.gap] : []) : [],
    );
    const [above, below] = gaps;
    expect(above).toMatchObject({ start: 0, position: 'start' });
    expect(below).toMatchObject({ position: 'end' });
    const up = expandGap(visible, above!, 'up');
    expect(up.reduce((n, v) => n + v, 0) - visible.reduce((n, v) => n + v, 0)).toBe(20);
    // The 20 lines just above the hunk, not the top of the file.
    expect(up[above!.end - 1]).toBe(1);
    expect(up[above!.end - 21]).toBe(0);
    const down = expandGap(visible, below!, 'down');
    expect(down[below!.start]).toBe(1);
    expect(down[below!.start + 20]).toBe(0);
    expect(expandGap(visible, above!, 'all').slice(0, above!.end).every((v) => v === 1)).toBe(true);
  });

  it('shows the whole file when context is unbounded', () => {
    const rows = buildRows(diff, initialVisibility(diff, Infinity), 'unified').rows;
    expect(rows.filter((row) => row.type === 'line')).toHaveLength(diff.lines.length);
    expect(rows.some((row) => (row.type === 'hunk' || row.type === 'gap') && row.gap)).toBe(false);
  });

  it('reveals a hidden line with a little context, and leaves a shown one alone', () => {
    const visible = initialVisibility(diff);
    expect(visible[10]).toBe(0);
    const next = revealLine(visible, 10, 2);
    expect(Array.from(next.slice(7, 14))).toEqual([0, 1, 1, 1, 1, 1, 0]);
    expect(revealLine(next, 10)).toBe(next);
    const rows = buildRows(diff, next, 'split').rows;
    const at = rowsByLine(rows).get(10)!;
    expect(rows[at]).toEqual({ type: 'pair', left: 10, right: 10 });
  });
});
