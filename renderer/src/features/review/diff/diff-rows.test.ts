import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import {
  buildRows,
  expandDirections,
  expandGap,
  formatHunkHeader,
  initialVisibility,
  MIN_COLLAPSED_LINES,
  type DiffRow,
  type Gap,
} from './diff-rows.ts';
import { computeLineDiff, type LineDiff } from './line-diff.ts';
import { mutateText, randomText, seededRandom } from './test-texts.ts';

/** The unified patch the rows describe: if `applyPatch` turns old into new with it, headers and counts are right. */
function rowsToPatch(diff: LineDiff, rows: DiffRow[]): string {
  let patch = '--- a/file\n+++ b/file\n';
  const emit = (prefix: string, index: number) => {
    const line = diff.lines[index];
    if (!line) return;
    patch += `${prefix}${line.text}${line.crlf ? '\r' : ''}\n`;
    if (line.noEol) patch += '\\ No newline at end of file\n';
  };
  for (const row of rows) {
    if (row.type === 'hunk') patch += `${formatHunkHeader({ ...row.header, context: '' })}\n`;
    if (row.type === 'line') {
      const kind = diff.lines[row.line]?.kind;
      emit(kind === 'add' ? '+' : kind === 'del' ? '-' : ' ', row.line);
    }
  }
  return patch;
}

const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}`);

describe('initialVisibility and buildRows (unified)', () => {
  const oldText = `${lines(40).join('\n')}\n`;
  const newText = oldText.replace('line 20\n', 'line twenty\n');
  const diff = computeLineDiff(oldText, newText);

  it('collapses everything but 3 lines of context around the change', () => {
    const visible = initialVisibility(diff);
    const { rows, changes } = buildRows(diff, visible, 'unified');
    expect(rows[0]).toEqual({
      type: 'hunk',
      gap: { start: 0, end: 16, position: 'start' },
      header: { oldStart: 17, oldLines: 7, newStart: 17, newLines: 7, context: 'line 16' },
    });
    expect(rows.slice(1, 9).map((r) => (r.type === 'line' ? diff.lines[r.line]?.text : r.type))).toEqual([
      'line 17',
      'line 18',
      'line 19',
      'line 20',
      'line twenty',
      'line 21',
      'line 22',
      'line 23',
    ]);
    expect(rows[9]).toEqual({ type: 'gap', gap: { start: 24, end: 41, position: 'end' } });
    expect(rows).toHaveLength(10);
    expect(changes).toEqual([{ first: 4, last: 5 }]);
  });

  it('shows everything with infinite context', () => {
    const { rows } = buildRows(diff, initialVisibility(diff, Infinity), 'unified');
    expect(rows[0]).toMatchObject({
      type: 'hunk',
      gap: null,
      header: { oldStart: 1, oldLines: 40, newStart: 1, newLines: 40 },
    });
    expect(rows).toHaveLength(42);
  });

  it('joins hunks whose context overlaps and splits those that do not', () => {
    const near = computeLineDiff(oldText, newText.replace('line 26\n', 'line 26!\n'));
    expect(
      buildRows(near, initialVisibility(near), 'unified').rows.filter((r) => r.type === 'hunk'),
    ).toHaveLength(1);
    const far = computeLineDiff(oldText, newText.replace('line 35\n', 'line 35!\n'));
    const hunks = buildRows(far, initialVisibility(far), 'unified').rows.filter((r) => r.type === 'hunk');
    expect(hunks.map((h) => (h.type === 'hunk' ? formatHunkHeader(h.header) : ''))).toEqual([
      '@@ -17,7 +17,7 @@ line 16',
      '@@ -32,9 +32,9 @@ line 31',
    ]);
  });

  it('does not collapse runs shorter than MIN_COLLAPSED_LINES (a header would cost as much room)', () => {
    // Changes at lines 10 and 20 leave 9 - 2 * 3 = 3 unchanged lines between their contexts.
    const three = computeLineDiff(oldText, oldText.replace('line 10\n', 'x\n').replace('line 20\n', 'y\n'));
    expect(MIN_COLLAPSED_LINES).toBe(4);
    const rows = buildRows(three, initialVisibility(three), 'unified').rows;
    expect(rows.filter((r) => r.type === 'hunk')).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'hunk', gap: { start: 0, end: 6 } });
    // One more unchanged line between them, and the run (4 lines) is collapsed again.
    const four = computeLineDiff(oldText, oldText.replace('line 10\n', 'x\n').replace('line 21\n', 'y\n'));
    expect(
      buildRows(four, initialVisibility(four), 'unified').rows.filter((r) => r.type === 'hunk'),
    ).toHaveLength(2);
  });

  it('uses git header numbers for added and deleted files', () => {
    const added = computeLineDiff('', 'a\nb\n');
    const [first] = buildRows(added, initialVisibility(added), 'unified').rows;
    expect(first?.type === 'hunk' && formatHunkHeader(first.header)).toBe('@@ -0,0 +1,2 @@');
    const deleted = computeLineDiff('a\n', '');
    const [only] = buildRows(deleted, initialVisibility(deleted), 'unified').rows;
    expect(only?.type === 'hunk' && formatHunkHeader(only.header)).toBe('@@ -1 +0,0 @@');
  });

  it('gives no rows for two empty texts', () => {
    const empty = computeLineDiff('', '');
    expect(buildRows(empty, initialVisibility(empty), 'unified')).toEqual({ rows: [], changes: [] });
  });

  it('produces a patch that applies for CRLF lines and a missing final newline', () => {
    const before = 'a\r\nb\r\nc\r\nd';
    const after = 'a\r\nB\r\nc\r\nd\r\n';
    const d = computeLineDiff(before, after);
    const patch = rowsToPatch(d, buildRows(d, initialVisibility(d, 1), 'unified').rows);
    expect(applyPatch(before, patch)).toBe(after);
  });

  it('produces patches that apply, for 300 random edits and contexts 0..5', () => {
    const random = seededRandom(42);
    for (let trial = 0; trial < 300; trial++) {
      const before = randomText(random, 40).replace(/\r/g, '');
      const after = mutateText(random, before);
      const d = computeLineDiff(before, after);
      if (d.blocks.length === 0) continue;
      const context = trial % 6;
      const patch = rowsToPatch(d, buildRows(d, initialVisibility(d, context), 'unified').rows);
      expect(applyPatch(before, patch), `trial ${trial}, context ${context}\n${patch}`).toBe(after);
    }
  });
});

describe('buildRows (split)', () => {
  it('pairs deletions with additions and pads the shorter side', () => {
    const diff = computeLineDiff('a\nb\nc\nd\n', 'a\nB\nC2\nC3\nd\n');
    const { rows, changes } = buildRows(diff, initialVisibility(diff), 'split');
    expect(rows.slice(1)).toEqual([
      { type: 'pair', left: 0, right: 0 },
      { type: 'pair', left: 1, right: 3 },
      { type: 'pair', left: 2, right: 4 },
      { type: 'pair', left: -1, right: 5 },
      { type: 'pair', left: 6, right: 6 },
    ]);
    expect(changes).toEqual([{ first: 2, last: 4 }]);
  });

  it('keeps an edited line facing its old version when a line is inserted above it', () => {
    const diff = computeLineDiff('x\nlet total = 1;\n', 'x\n// running total\nlet total = 2;\n');
    const { rows } = buildRows(diff, initialVisibility(diff), 'split');
    expect(rows.slice(1)).toEqual([
      { type: 'pair', left: 0, right: 0 },
      { type: 'pair', left: -1, right: 2 },
      { type: 'pair', left: 1, right: 3 },
    ]);
  });

  it('has one change span per block in both modes, in order', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 100; trial++) {
      const before = randomText(random, 30);
      const d = computeLineDiff(before, mutateText(random, before));
      for (const mode of ['unified', 'split'] as const) {
        const { rows, changes } = buildRows(d, initialVisibility(d, trial % 4), mode);
        expect(changes).toHaveLength(d.blocks.length);
        changes.forEach((span, i) => {
          expect(span.last).toBeGreaterThanOrEqual(span.first);
          if (i > 0) expect(span.first).toBeGreaterThan((changes[i - 1] as { last: number }).last);
          const row = rows[span.first];
          expect(row?.type).toBe(mode === 'split' ? 'pair' : 'line');
        });
      }
    }
  });
});

describe('expanding gaps', () => {
  const oldText = `${lines(100).join('\n')}\n`;
  const diff = computeLineDiff(oldText, oldText.replace('line 50\n', 'line fifty\n'));
  const visible = initialVisibility(diff);
  const gapOf = (v: Uint8Array, index: number): Gap => {
    const rows = buildRows(diff, v, 'unified').rows;
    const gaps = rows.flatMap((r) =>
      r.type === 'hunk' && r.gap ? [r.gap] : r.type === 'gap' ? [r.gap] : [],
    );
    return gaps[index] as Gap;
  };

  it('offers up/down/all by position and size', () => {
    expect(expandDirections({ start: 0, end: 46, position: 'start' })).toEqual(['up', 'all']);
    expect(expandDirections({ start: 54, end: 101, position: 'end' })).toEqual(['down', 'all']);
    expect(expandDirections({ start: 10, end: 60, position: 'middle' })).toEqual(['down', 'up', 'all']);
    expect(expandDirections({ start: 10, end: 25, position: 'middle' })).toEqual(['all']);
  });

  it('reveals 20 lines above the hunk with "up" and does not touch the input', () => {
    const gap = gapOf(visible, 0);
    expect(gap).toEqual({ start: 0, end: 46, position: 'start' });
    const next = expandGap(visible, gap, 'up');
    expect(visible[45]).toBe(0);
    expect(Array.from(next.slice(26, 46))).toEqual(Array(20).fill(1));
    expect(next[25]).toBe(0);
    const [first] = buildRows(diff, next, 'unified').rows;
    expect(first?.type === 'hunk' && formatHunkHeader(first.header)).toBe('@@ -27,27 +27,27 @@ line 26');
  });

  it('reveals 20 lines below the previous hunk with "down", and all of it with "all"', () => {
    const gap = gapOf(visible, 1);
    expect(gap.position).toBe('end');
    const down = expandGap(visible, gap, 'down');
    expect(Array.from(down.slice(gap.start, gap.start + 20))).toEqual(Array(20).fill(1));
    expect(down[gap.start + 20]).toBe(0);
    const all = expandGap(down, gapOf(down, 1), 'all');
    const rows = buildRows(diff, all, 'unified').rows;
    expect(rows.some((r) => r.type === 'gap')).toBe(false);
  });

  it('merges two hunks once the gap between them is expanded', () => {
    const twoChanges = computeLineDiff(
      oldText,
      oldText.replace('line 20\n', 'x\n').replace('line 80\n', 'y\n'),
    );
    const v = initialVisibility(twoChanges);
    const rows = buildRows(twoChanges, v, 'unified').rows;
    const middle = rows.find((r) => r.type === 'hunk' && r.gap?.position === 'middle');
    expect(middle?.type === 'hunk' && middle.gap).toBeTruthy();
    if (middle?.type !== 'hunk' || !middle.gap) return;
    const merged = buildRows(twoChanges, expandGap(v, middle.gap, 'all'), 'unified').rows;
    expect(merged.filter((r) => r.type === 'hunk')).toHaveLength(1);
  });
});

describe('formatHunkHeader', () => {
  it('omits counts of one and appends the function context', () => {
    expect(formatHunkHeader({ oldStart: 3, oldLines: 1, newStart: 3, newLines: 2, context: '' })).toBe(
      '@@ -3 +3,2 @@',
    );
    expect(
      formatHunkHeader({ oldStart: 10, oldLines: 7, newStart: 12, newLines: 6, context: 'function run() {' }),
    ).toBe('@@ -10,7 +12,6 @@ function run() {');
  });
});
