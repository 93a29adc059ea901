import { describe, expect, it } from 'vitest';
import { applySelection, filePatch, resolveSelection, type ChangeKey } from '../../../../../shared/patch-selection.ts';
import { computeLineDiff } from '../diff/line-diff.ts';
import { buildRows, initialVisibility } from '../diff/diff-rows.ts';
import { hunkWords, refusedHunks, selectionsOf } from './commit-parts-model.ts';
import { mapLines, rowHunks } from './line-map.ts';
import { changeKeys, pickBlocked, selectionLabel, summarize, toSelection } from './selection-model.ts';

/** 40 lines with four edits far enough apart to make four hunks. */
const OLD = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const NEW = OLD.replace('line 2\n', 'line two\n')
  .replace('line 12\n', 'line twelve\nline twelve b\n')
  .replace('line 22\n', '')
  .replace('line 32\n', 'line thirty-two\n');

describe('toSelection', () => {
  const patch = filePatch(OLD, NEW);
  const hunkKeys = (id: number) => changeKeys({ hunks: [patch.hunks[id - 1] as (typeof patch.hunks)[number]] });

  it('names whole hunks by id and says "2 of 4 hunks"', () => {
    expect(patch.hunks).toHaveLength(4);
    const chosen = new Set([...hunkKeys(1), ...hunkKeys(3)]);
    const selection = toSelection(patch, chosen);
    expect(selection).toEqual({ hunks: [1, 3] });
    expect(selectionLabel(summarize(patch, chosen), 'src/a.ts')).toBe('2 of 4 hunks of src/a.ts');
    const written = applySelection(OLD, NEW, selection as { hunks: number[] });
    expect(written).toContain('line two\n');
    expect(written).not.toContain('line 22\n');
    expect(written).toContain('line 12\n');
  });

  it('names the chosen lines of a partly chosen hunk by side and counts lines', () => {
    const chosen = new Set<ChangeKey>(['+12', '-32']);
    expect(toSelection(patch, chosen)).toEqual({
      lines: [
        { side: 'new', from: 12, to: 12 },
        { side: 'old', from: 32, to: 32 },
      ],
    });
    expect(selectionLabel(summarize(patch, chosen), 'a.ts')).toBe('2 of 8 changed lines of a.ts');
  });

  it('joins runs of one side into one range', () => {
    const chosen = new Set<ChangeKey>(['+12', '+13']);
    expect(toSelection(patch, chosen)).toEqual({ lines: [{ side: 'new', from: 12, to: 13 }] });
  });

  it('is all or none when the file goes whole or not at all', () => {
    expect(toSelection(patch, new Set(changeKeys(patch)))).toBe('all');
    expect(toSelection(patch, new Set())).toBe('none');
  });

  it('round-trips: the selection sent names exactly the lines chosen', () => {
    const keys = changeKeys(patch);
    for (let mask = 1; mask < 1 << keys.length; mask += 7) {
      const chosen = new Set(keys.filter((_, i) => mask & (1 << i)));
      const selection = toSelection(patch, chosen);
      if (selection === 'all' || selection === 'none') continue;
      expect(resolveSelection(patch, selection)).toEqual(chosen);
    }
  });
});

describe('pickBlocked', () => {
  it('says why lines cannot be chosen, in the app words', () => {
    expect(pickBlocked({ status: 'modified', binary: false }, false)).toBeNull();
    expect(pickBlocked({ status: 'modified', binary: false }, true)).toBe(
      'Line selection is off while whitespace changes are hidden: show them to choose lines.',
    );
    expect(pickBlocked({ status: 'added', binary: false }, false)).toMatch(/new: it is committed whole/);
    expect(pickBlocked({ status: 'deleted', binary: false }, false)).toMatch(/deleted/);
    expect(pickBlocked({ status: 'renamed', binary: false }, false)).toMatch(/renamed/);
    expect(pickBlocked({ status: 'modified', binary: true }, false)).toMatch(/binary/);
    expect(pickBlocked({ status: 'modified', binary: false }, true)).not.toMatch(/--/);
  });
});

describe('mapLines and rowHunks', () => {
  it('ties every changed line of the viewer to its patch key and hunk, first row first', () => {
    const patch = filePatch(OLD, NEW);
    const diff = computeLineDiff(OLD, NEW);
    const map = mapLines(diff, patch);
    const drawn = map.keys.filter((key) => key !== null);
    expect(new Set(drawn)).toEqual(new Set(changeKeys(patch)));
    const { rows } = buildRows(diff, initialVisibility(diff), 'unified');
    const placed = rowHunks(rows, map);
    const firsts = placed.flatMap((place) => (place?.first ? [place.id] : []));
    expect(firsts).toEqual([1, 2, 3, 4]);
    const lasts = placed.flatMap((place) => (place?.last ? [place.id] : []));
    expect(lasts).toEqual([1, 2, 3, 4]);
    // Hunk headers are not part of a hunk's rows.
    rows.forEach((row, i) => row.type === 'hunk' && expect(placed[i]).toBeNull());
  });

  it('gives no key to a changed line the patch does not know', () => {
    const diff = computeLineDiff(OLD, NEW);
    const map = mapLines(diff, { hunks: [] });
    expect(map.keys.every((key) => key === null)).toBe(true);
  });
});

describe('commit parts', () => {
  it('reads the refused hunks from a conflict error and words them', () => {
    const error = { code: 'conflict', message: 'x', details: { paths: [{ path: 'src/a.ts', reason: 'r', hunks: [2, 3] }] } };
    expect(refusedHunks(error)).toEqual([{ path: 'src/a.ts', hunks: [2, 3] }]);
    expect(refusedHunks({ code: 'validation', details: {} })).toBeNull();
    expect(refusedHunks(new Error('plain'))).toBeNull();
    expect(hunkWords([3])).toBe('hunk 3');
    expect(hunkWords([1, 2, 4])).toBe('hunks 1, 2 and 4');
  });

  it('sends selections only for files committed in part', () => {
    expect(selectionsOf([])).toBeUndefined();
    expect(selectionsOf([{ path: 'a', label: '', selection: { hunks: [1] } }])).toEqual({ a: { hunks: [1] } });
  });
});
