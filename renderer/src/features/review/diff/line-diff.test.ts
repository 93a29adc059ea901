import { diffArrays } from 'diff';
import { describe, expect, it } from 'vitest';
import { computeLineDiff, pairedLine, type LineDiff } from './line-diff.ts';
import { mutateText, randomText, seededRandom } from './test-texts.ts';

/** The text of one side rebuilt from the diff lines, endings included. */
function rebuild(diff: LineDiff, side: 'old' | 'new'): string {
  return diff.lines
    .filter((line) => line.kind === 'context' || line.kind === (side === 'old' ? 'del' : 'add'))
    .map((line) => line.text + (line.noEol ? '' : line.crlf ? '\r\n' : '\n'))
    .join('');
}

const kinds = (diff: LineDiff) =>
  diff.lines.map((l) => `${l.kind[0]}${l.oldNo ?? '-'}/${l.newNo ?? '-'} ${l.text}`);

describe('computeLineDiff', () => {
  it('numbers both sides and orders deletions before additions', () => {
    const diff = computeLineDiff('a\nb\nc\n', 'a\nB\nc\nd\n');
    expect(kinds(diff)).toEqual(['c1/1 a', 'd2/- b', 'a-/2 B', 'c3/3 c', 'a-/4 d']);
    expect(diff.blocks).toMatchObject([
      { start: 1, dels: 1, adds: 1, rows: [[0, 0]] },
      { start: 4, dels: 0, adds: 1, rows: [[-1, 0]] },
    ]);
    expect([diff.additions, diff.deletions]).toEqual([2, 1]);
    expect(diff.approximate).toBe(false);
  });

  it('treats a missing final newline as a change of that line, and flags it', () => {
    const diff = computeLineDiff('a\nb', 'a\nb\n');
    expect(kinds(diff)).toEqual(['c1/1 a', 'd2/- b', 'a-/2 b']);
    expect(diff.lines[1]?.noEol).toBe(true);
    expect(diff.lines[2]?.noEol).toBe(false);
  });

  it('shows a line-ending change (CRLF to LF) as a change, keeping the CRLF flag', () => {
    const diff = computeLineDiff('a\r\nb\n', 'a\nb\n');
    expect(kinds(diff)).toEqual(['d1/- a', 'a-/1 a', 'c2/2 b']);
    expect(diff.lines[0]?.crlf).toBe(true);
    expect(diff.lines[1]?.crlf).toBe(false);
    expect([diff.oldEol, diff.newEol]).toEqual(['mixed', 'lf']);
  });

  it('handles added, deleted and empty files', () => {
    expect(kinds(computeLineDiff('', 'x\ny\n'))).toEqual(['a-/1 x', 'a-/2 y']);
    expect(kinds(computeLineDiff('x\n', ''))).toEqual(['d1/- x']);
    const none = computeLineDiff('', '');
    expect(none.lines).toEqual([]);
    expect(none.blocks).toEqual([]);
  });

  it('has no blocks for equal texts', () => {
    const diff = computeLineDiff('a\nb\n', 'a\nb\n');
    expect(diff.blocks).toEqual([]);
    expect(diff.lines.every((l) => l.kind === 'context')).toBe(true);
  });

  it('keeps tabs and unicode intact', () => {
    const diff = computeLineDiff('\tä😀\n', '\tä😀!\n');
    expect(diff.lines.map((l) => l.text)).toEqual(['\tä😀', '\tä😀!']);
  });

  it('rebuilds both sides exactly and is minimal, for 400 random edits', () => {
    const random = seededRandom(6);
    for (let trial = 0; trial < 400; trial++) {
      const oldText = randomText(random, 30);
      const newText = random() < 0.8 ? mutateText(random, oldText) : randomText(random, 30);
      const diff = computeLineDiff(oldText, newText);
      expect(rebuild(diff, 'old'), `trial ${trial}`).toBe(oldText);
      expect(rebuild(diff, 'new'), `trial ${trial}`).toBe(newText);
      const keyed = (text: string) =>
        (text.match(/[^\n]*\n|[^\n]+$/g) ?? []).map((l) => (l.endsWith('\n') ? l : `${l}<no-eol>`));
      const reference = diffArrays(keyed(oldText), keyed(newText));
      const referenceEdits = reference
        .filter((c) => c.added || c.removed)
        .reduce((n, c) => n + c.value.length, 0);
      expect(diff.additions + diff.deletions, `trial ${trial}`).toBe(referenceEdits);
    }
  });

  it('falls back to unique-line anchors above the edit bound, still rebuilding both sides', () => {
    const oldLines = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
    const newLines = oldLines.map((line, i) => (i % 3 === 0 ? `${line} changed` : line)).reverse();
    const oldText = `${oldLines.join('\n')}\n`;
    const newText = `${newLines.join('\n')}\n`;
    const diff = computeLineDiff(oldText, newText, { maxEdits: 0 });
    expect(rebuild(diff, 'old')).toBe(oldText);
    expect(rebuild(diff, 'new')).toBe(newText);
  });

  it('flags a diff approximate when a stretch past the bound is shown as a whole replacement', () => {
    // Around the unique line "m", the repeated lines swap: each stretch needs edits the bound refuses.
    const oldText = 'a\nb\na\nb\nm\nc\nd\nc\nd\n';
    const newText = 'b\na\nb\na\nm\nd\nc\nd\nc\n';
    const tight = computeLineDiff(oldText, newText, { maxEdits: 0 });
    expect(tight.approximate).toBe(true);
    expect(tight.lines.filter((l) => l.kind === 'context').map((l) => l.text)).toEqual(['m']);
    expect(computeLineDiff(oldText, newText).approximate).toBe(false);
  });

  it('uses anchors to keep unchanged unique lines as context in the fallback', () => {
    const oldText = 'head\na\nb\nmiddle\nc\nd\ntail\n';
    const newText = 'head\nA\nB\nmiddle\nC\nD\ntail\n';
    const diff = computeLineDiff(oldText, newText, { maxEdits: 0 });
    expect(diff.approximate).toBe(false);
    expect(diff.lines.filter((l) => l.kind === 'context').map((l) => l.text)).toEqual([
      'head',
      'middle',
      'tail',
    ]);
    expect(rebuild(diff, 'new')).toBe(newText);
  });
});

describe('pairedLine', () => {
  it('gives each line its counterpart from the alignment, or -1', () => {
    // Block at 1: deletions 1-2 (a1, b1), additions 3-5 (note, a2, b2); "note" stands alone.
    const diff = computeLineDiff(
      'keep\nconst alpha = 1;\nconst beta = 2;\n',
      'keep\n// a new note\nconst alpha = 10;\nconst beta = 20;\n',
    );
    const block = diff.blocks[0]!;
    expect(block.rows).toEqual([
      [-1, 0],
      [0, 1],
      [1, 2],
    ]);
    expect(pairedLine(block, 1)).toBe(4);
    expect(pairedLine(block, 2)).toBe(5);
    expect(pairedLine(block, 3)).toBe(-1);
    expect(pairedLine(block, 4)).toBe(1);
    expect(pairedLine(block, 5)).toBe(2);
    expect(pairedLine(block, 0)).toBe(-1);
    expect(pairedLine(block, 6)).toBe(-1);
  });
});
