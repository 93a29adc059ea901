import { createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.ts';
import {
  applySelection,
  changeKey,
  filePatch,
  hunkState,
  remaining,
  resolveSelection,
  type FilePatch,
  type PatchLine,
} from './patch-selection.ts';
import { editSample, keyRange, randomChoice, seededRandom } from './patch-selection-samples.ts';

const numbered = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}\n`);

/** 40 lines, and an edit with four hunks: a replacement, a deletion, an insertion, a change at the end. */
function fourHunks(): { original: string; modified: string } {
  const lines = numbered(40);
  const edited = [...lines];
  edited[38] = 'line 39 changed\n';
  edited.splice(28, 0, 'inserted A\n', 'inserted B\n');
  edited.splice(17, 2);
  edited.splice(2, 1, 'three\n', 'three and a half\n');
  return { original: lines.join(''), modified: edited.join('') };
}

const changed = (patch: FilePatch) =>
  patch.hunks.flatMap((h) => h.lines.filter((l) => l.kind !== 'context').map((l) => `${l.kind === 'del' ? '-' : '+'}${l.text}${l.eol}`));

describe('filePatch', () => {
  it('cuts and numbers hunks as the printed unified diff does', () => {
    const { original, modified } = fourHunks();
    const printed = createTwoFilesPatch('a/f', 'b/f', original, modified, undefined, undefined, { context: 3 });
    const headers = printed.split('\n').filter((line) => line.startsWith('@@'));
    const patch = filePatch(original, modified);
    expect(patch.hunks.map((h) => h.id)).toEqual([1, 2, 3, 4]);
    expect(patch.hunks.map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`)).toEqual(headers);
  });

  it('numbers deletions by their old line and additions by their new line', () => {
    const { original, modified } = fourHunks();
    const keys = filePatch(original, modified).hunks.map((h) => h.lines.map(changeKey).filter(Boolean));
    expect(keys).toEqual([['-3', '+3', '+4'], ['-18', '-19'], ['+28', '+29'], ['-39', '+40']]);
  });

  it('prints the header of an empty side as a unified diff does', () => {
    expect(filePatch('', 'a\nb\n').hunks[0]).toMatchObject({ oldStart: 0, oldLines: 0, newStart: 1, newLines: 2 });
    expect(filePatch('a\n', '').hunks[0]).toMatchObject({ oldStart: 1, oldLines: 1, newStart: 0, newLines: 0 });
    expect(filePatch('', '').hunks).toEqual([]);
  });

  it('keeps line endings apart from the text', () => {
    const lines = filePatch('a\r\nb', 'a\r\nc\n').hunks[0]?.lines as PatchLine[];
    expect(lines.map((l) => [l.kind, l.text, l.eol])).toEqual([
      ['context', 'a', '\r\n'],
      ['del', 'b', ''],
      ['add', 'c', '\n'],
    ]);
  });

  it('refuses binary text, saying what to do', () => {
    expect(() => filePatch('a\0b', 'a')).toThrow(ValidationError);
    expect(() => applySelection('a', 'a\0', { hunks: [1] })).toThrow(/binary.*Commit the whole file/);
  });
});

describe('applySelection', () => {
  it('takes two hunks of four and leaves the others for later', () => {
    const { original, modified } = fourHunks();
    const once = applySelection(original, modified, { hunks: [1, 3] });
    const expected = numbered(40);
    expected.splice(28, 0, 'inserted A\n', 'inserted B\n');
    expected.splice(2, 1, 'three\n', 'three and a half\n');
    expect(once).toBe(expected.join(''));
    const rest = filePatch(once, modified);
    expect(rest.hunks).toHaveLength(2);
    expect(applySelection(once, modified, { hunks: [1, 2] })).toBe(modified);
  });

  it('takes single lines: unchosen deletions stay, unchosen additions are left out', () => {
    const { original, modified } = fourHunks();
    // Hunk 1 replaces line 3 by two lines; take the deletion and only the second addition.
    const result = applySelection(original, modified, { lines: [{ side: 'old', from: 3, to: 3 }, { side: 'new', from: 4, to: 4 }] });
    const expected = numbered(40);
    expected.splice(2, 1, 'three and a half\n');
    expect(result).toBe(expected.join(''));
    // Deleting only line 19 of the two: line 18 stays.
    const expected2 = numbered(40);
    expected2.splice(18, 1);
    expect(applySelection(original, modified, { lines: [{ side: 'both', from: 19, to: 19 }] })).toBe(expected2.join(''));
  });

  it('matches both sides with a bare range: "replace lines 39-40" takes hunk 4', () => {
    const { original, modified } = fourHunks();
    const result = applySelection(original, modified, { lines: [{ side: 'both', from: 39, to: 40 }] });
    expect(result).toBe(numbered(40).join('').replace('line 39\n', 'line 39 changed\n'));
  });

  it('keeps CRLF and mixed endings byte for byte', () => {
    const original = 'one\r\ntwo\r\nthree\nfour\r\n';
    const modified = 'one\r\nTWO\r\nthree\nfour\r\nfive\r\n';
    expect(applySelection(original, modified, { lines: [{ side: 'new', from: 5, to: 5 }] })).toBe('one\r\ntwo\r\nthree\nfour\r\nfive\r\n');
    expect(applySelection(original, modified, { lines: [{ side: 'both', from: 2, to: 2 }] })).toBe('one\r\nTWO\r\nthree\nfour\r\n');
    // An ending alone is a change: LF -> CRLF on line 3.
    expect(applySelection(original, 'one\r\ntwo\r\nthree\r\nfour\r\n', { hunks: [1] })).toBe('one\r\ntwo\r\nthree\r\nfour\r\n');
  });

  it('handles a last line with no newline, and refuses to glue it to a taken line', () => {
    // Appending to a file whose last line has no newline: git shows "-b" / "+b" / "+c".
    const original = 'a\nb';
    const modified = 'a\nb\nc\n';
    expect(applySelection(original, modified, { hunks: [1] })).toBe(modified);
    expect(applySelection(original, modified, { lines: [{ side: 'both', from: 2, to: 2 }] })).toBe('a\nb\n');
    expect(() => applySelection(original, modified, { lines: [{ side: 'new', from: 3, to: 3 }] })).toThrow(/join two lines/);
    // Removing the newline of the last line only.
    expect(applySelection('x\ny\n', 'x\ny', { hunks: [1] })).toBe('x\ny');
    expect(applySelection('x\ny\n', 'x\nY', { lines: [{ side: 'old', from: 2, to: 2 }] })).toBe('x\n');
  });

  it('handles empty files on either side', () => {
    expect(applySelection('', 'a\nb\n', { lines: [{ side: 'new', from: 2, to: 2 }] })).toBe('b\n');
    expect(applySelection('a\nb\n', '', { lines: [{ side: 'old', from: 1, to: 1 }] })).toBe('b\n');
    expect(applySelection('a\nb\n', '', { hunks: [1] })).toBe('');
    expect(applySelection('', '', {})).toBe('');
  });

  it('refuses hunk ids and lines that name no change', () => {
    const { original, modified } = fourHunks();
    expect(() => applySelection(original, modified, { hunks: [5] })).toThrow("There is no hunk 5: this file's diff has 4 hunks, numbered 1 to 4.");
    expect(() => applySelection(original, modified, { hunks: [0] })).toThrow(/no hunk 0/);
    expect(() => applySelection(original, modified, { lines: [{ side: 'both', from: 10, to: 12 }] })).toThrow("Lines 10-12 hold no changed line of this file's diff: choose lines marked as added or deleted, by the numbers the diff shows.");
    expect(() => applySelection(original, modified, { lines: [{ side: 'new', from: 18, to: 18 }] })).toThrow(/^Line 18 is not an added line/);
    expect(() => applySelection('a\n', 'a\n', { hunks: [1] })).toThrow(/no text changes/);
  });
});

describe('hunkState', () => {
  it('says all, none or some for a hunk checkbox', () => {
    const { original, modified } = fourHunks();
    const patch = filePatch(original, modified);
    const chosen = resolveSelection(patch, { hunks: [2], lines: [{ side: 'new', from: 3, to: 3 }] });
    expect(patch.hunks.map((h) => hunkState(h, chosen))).toEqual(['some', 'all', 'none', 'none']);
  });
});

describe('remaining', () => {
  it('leaves exactly the unchosen changes pending, for 300 generated edits', () => {
    let refused = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed);
      const { original, modified } = editSample(random);
      const patch = filePatch(original, modified);
      const keys = randomChoice(patch, random);
      const selection = { lines: keys.map(keyRange) };
      let rest: FilePatch;
      try {
        rest = remaining(original, modified, selection);
      } catch (error) {
        expect(String(error), `seed ${seed}`).toMatch(/join two lines/);
        refused++;
        continue;
      }
      const chosen = new Set(keys);
      const unchosen = patch.hunks.flatMap((h) =>
        h.lines.filter((l) => l.kind !== 'context' && !chosen.has(changeKey(l) as never)).map((l) => `${l.kind === 'del' ? '-' : '+'}${l.text}${l.eol}`),
      );
      // Equal lines next to each other may be shown shifted (the diff's choice), never different.
      expect(changed(rest).sort(), `seed ${seed}`).toEqual(unchosen.sort());
      // A second commit of everything left gives the sandbox's text.
      const once = applySelection(original, modified, selection);
      expect(applySelection(once, modified, { hunks: rest.hunks.map((h) => h.id) }), `seed ${seed}`).toBe(modified);
    }
    expect(refused).toBeLessThan(60);
  });
});
