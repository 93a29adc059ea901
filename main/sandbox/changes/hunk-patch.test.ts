import { describe, expect, it } from 'vitest';
import { filePatch, type PatchLine } from '../../../shared/patch-selection.ts';
import { hunkHeader } from '../../../shared/hunk-header.ts';
import { hunkPatch } from './hunk-patch.ts';

/** The patch text as the numbered hunks spell it, line by line: what `plans diff` printed from them. */
function fromHunks(before: string, after: string): string {
  const { hunks } = filePatch(before, after);
  if (hunks.length === 0) return '';
  const sign = (line: PatchLine) => (line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' ');
  const lines = hunks.flatMap((hunk) => [
    `${hunkHeader(hunk)} hunk ${hunk.id}\n`,
    ...hunk.lines.map((line) => (line.eol === '' ? `${sign(line)}${line.text}\n\\ No newline at end of file\n` : `${sign(line)}${line.text}${line.eol}`)),
  ]);
  return ['--- a/f\n', '+++ b/f\n', ...lines].join('');
}

const numbered = (count: number, edit: (n: number) => string | null = () => null): string =>
  Array.from({ length: count }, (_, i) => edit(i + 1) ?? `line ${i + 1}\n`).join('');

describe('hunkPatch', () => {
  const cases: Array<[string, string, string]> = [
    ['edits far apart and near', numbered(40), numbered(40, (n) => (n === 2 ? 'two\n' : n === 9 ? null : n === 30 ? 'thirty\n' : null))],
    ['an added file', '', 'a\nb\nc'],
    ['a deleted file', 'a\r\nb\r\n', ''],
    ['CRLF lines and a last line without its newline', 'a\r\nb\r\nc', 'a\r\nB\r\nc\r\nd'],
    ['a last line that loses its newline', 'x\ny\n', 'x\ny'],
    ['no change', 'same\n', 'same\n'],
    ['nothing at all', '', ''],
  ];

  it.each(cases)('prints the numbered hunks a partial commit takes, and counts their lines: %s', (_, before, after) => {
    const made = hunkPatch('a/f', 'b/f', before, after, { path: 'f' });
    const { hunks } = filePatch(before, after);
    expect(made.patch).toBe(fromHunks(before, after));
    expect(made.hunks).toEqual(hunks);
    const lines = hunks.flatMap((hunk) => hunk.lines);
    expect([made.additions, made.deletions]).toEqual([lines.filter((l) => l.kind === 'add').length, lines.filter((l) => l.kind === 'del').length]);
    // The head's fields first, then the patch's, hunks last, in a copy and in JSON alike.
    expect(Object.keys({ ...made })).toEqual(['path', 'patch', 'additions', 'deletions', 'hunks']);
    expect(JSON.parse(JSON.stringify(made)).hunks).toEqual(JSON.parse(JSON.stringify(hunks)));
  });

  it('gives the hunks as a plain field once read, which can be set and deleted like any other', () => {
    const made = hunkPatch('a/f', 'b/f', 'a\nb\n', 'a\nB\n');
    const read = made.hunks;
    expect(made.hunks).toBe(read);
    expect(Object.getOwnPropertyDescriptor(made, 'hunks')).toEqual({ value: read, enumerable: true, writable: true, configurable: true });
    const unread = hunkPatch('a/f', 'b/f', 'a\n', 'b\n');
    unread.hunks = [];
    expect(unread.hunks).toEqual([]);
    expect(delete (unread as Partial<typeof unread>).hunks).toBe(true);
    expect('hunks' in unread).toBe(false);
  });
});
