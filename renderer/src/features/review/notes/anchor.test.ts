import { describe, expect, it } from 'vitest';
import type { ReviewNote } from '../../../../../shared/review-dto.ts';
import { buildRows, initialVisibility } from '../diff/diff-rows.ts';
import { computeLineDiff } from '../diff/line-diff.ts';
import { anchorLabel, groupNotes, indexRows, notesByRow, openCount, rangeForKey, rowLines } from './anchor.ts';

/** A note with the fields a test does not care about filled in. */
function note(fields: Partial<ReviewNote>): ReviewNote {
  return {
    id: 'n1',
    planId: 'p1',
    sandboxId: 's1',
    resourceName: 'local/site',
    path: 'src/a.ts',
    side: 'new',
    fromLine: 10,
    toLine: 14,
    anchorText: 'x',
    body: 'fix it',
    status: 'open',
    outdated: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    resolvedAt: null,
    ...fields,
  };
}

describe('anchorLabel', () => {
  it('names lines with their side, a file, a sandbox and the plan', () => {
    expect(anchorLabel(note({}))).toBe('src/a.ts, lines 10-14 (sandbox)');
    expect(anchorLabel(note({ side: 'old', fromLine: 3, toLine: 3 }))).toBe('src/a.ts, line 3 (original)');
    expect(anchorLabel(note({ side: null, fromLine: null, toLine: null }))).toBe('src/a.ts (whole file)');
    expect(anchorLabel(note({ path: null, side: null, fromLine: null, toLine: null }))).toBe('local/site (whole sandbox)');
    expect(anchorLabel(note({ sandboxId: null, resourceName: null, path: null, side: null, fromLine: null }))).toBe('Whole plan');
  });
});

describe('groupNotes', () => {
  it('puts the plan first, then files in path order, open notes before resolved, then by line', () => {
    const notes = [
      note({ id: 'b1', path: 'src/b.ts', fromLine: 5 }),
      note({ id: 'a2', fromLine: 20, toLine: 20 }),
      note({ id: 'a1', status: 'resolved', fromLine: 1, toLine: 1 }),
      note({ id: 'plan', sandboxId: null, resourceName: null, path: null, side: null, fromLine: null }),
      note({ id: 'a0', fromLine: 2, toLine: 2 }),
    ];
    const groups = groupNotes(notes);
    expect(groups.map((g) => g.title)).toEqual(['Whole plan', 'src/a.ts', 'src/b.ts']);
    expect(groups[1]?.notes.map((n) => n.id)).toEqual(['a0', 'a2', 'a1']);
    expect(groups[1]?.open).toBe(2);
    expect(groups[1]?.resourceName).toBeNull();
    expect(openCount(notes)).toBe(4);
  });

  it('keeps the same path of two sandboxes apart and names their resources', () => {
    const groups = groupNotes([note({ id: 'x' }), note({ id: 'y', sandboxId: 's2', resourceName: 'local/api' })]);
    expect(groups).toHaveLength(2);
    expect(groups.map((g) => g.resourceName).sort()).toEqual(['local/api', 'local/site']);
  });
});

describe('rows and notes', () => {
  const oldText = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
  const newText = 'a\nb\nc\nd\nE\nf\ng\nh\ni\nj\n';
  const diff = computeLineDiff(oldText, newText);
  const visible = initialVisibility(diff, 1);

  it('finds the row of a line on either side, in both layouts', () => {
    for (const mode of ['unified', 'split'] as const) {
      const { rows } = buildRows(diff, visible, mode);
      const index = indexRows(rows, diff);
      const changed = index.new.get(5);
      expect(changed).toBeDefined();
      expect(rowLines(rows[changed!], diff).new).toBe(5);
      // Line 4 is context: the same row shows it as old 4 and new 4.
      expect(index.old.get(4)).toBe(index.new.get(4));
      // Lines in a collapsed run have no row.
      expect(index.new.get(9)).toBeUndefined();
    }
  });

  it('draws a note under the row of its last line and leaves out hidden ones', () => {
    const { rows } = buildRows(diff, visible, 'unified');
    const index = indexRows(rows, diff);
    const byRow = notesByRow(index, [
      note({ id: 'ctx', side: 'new', fromLine: 4, toLine: 4 }),
      note({ id: 'range', side: 'new', fromLine: 4, toLine: 6 }),
      note({ id: 'hidden', side: 'new', fromLine: 9, toLine: 9 }),
      note({ id: 'file', side: null, fromLine: null, toLine: null }),
    ]);
    expect(byRow.get(index.new.get(4)!)?.map((n) => n.id)).toEqual(['ctx']);
    expect(byRow.get(index.new.get(6)!)?.map((n) => n.id)).toEqual(['range']);
    expect([...byRow.values()].flat().map((n) => n.id)).not.toContain('hidden');
  });

  it('gives the c key the added lines of the focused change, else the first line in view', () => {
    const { rows, changes } = buildRows(diff, visible, 'split');
    expect(rangeForKey(rows, diff, changes[0] ?? null, 0)).toEqual({ side: 'new', from: 5, to: 5 });
    const first = rows.findIndex((r) => r.type !== 'hunk');
    expect(rangeForKey(rows, diff, null, 0)).toEqual({ side: 'new', from: rowLines(rows[first], diff).new, to: rowLines(rows[first], diff).new });
  });
});
