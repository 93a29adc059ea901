import { describe, expect, it } from 'vitest';
import { buildRows, initialVisibility } from './diff-rows.ts';
import { computeLineDiff } from './line-diff.ts';

describe('computeLineDiff with whitespace hidden', () => {
  const oldText = 'function f() {\n  return 1;\n}\nconst a = 1;\n';
  const newText = 'function f() {\n    return  1;\n}\t\nconst a = 2;\n';

  it('keeps changes of whitespace by default', () => {
    const diff = computeLineDiff(oldText, newText);
    expect([diff.additions, diff.deletions]).toEqual([3, 3]);
  });

  it('turns lines that differ only in whitespace into context, shown with the new text', () => {
    const diff = computeLineDiff(oldText, newText, { ignoreWhitespace: true });
    expect([diff.additions, diff.deletions]).toEqual([1, 1]);
    expect(diff.blocks).toHaveLength(1);
    const context = diff.lines.filter((line) => line.kind === 'context');
    expect(context.map((line) => [line.oldNo, line.newNo, line.text])).toEqual([
      [1, 1, 'function f() {'],
      [2, 2, '    return  1;'],
      [3, 3, '}\t'],
    ]);
    const rows = buildRows(diff, initialVisibility(diff), 'split').rows;
    expect(rows.filter((row) => row.type === 'pair')).toHaveLength(4);
  });

  it('ignores line-ending changes too, as git diff -w does', () => {
    const diff = computeLineDiff('a\r\nb\r\n', 'a\nb\n', { ignoreWhitespace: true });
    expect(diff.blocks).toEqual([]);
    expect([diff.oldEol, diff.newEol]).toEqual(['crlf', 'lf']);
  });

  it('still sees whitespace inside a word as a change of the word', () => {
    const diff = computeLineDiff('a b\n', 'ab\nx\n', { ignoreWhitespace: true });
    expect(diff.additions).toBe(1);
    expect(diff.lines[0]).toMatchObject({ kind: 'context', text: 'ab' });
  });
});

describe('computeLineDiff with whitespace hidden, beyond ASCII', () => {
  it('still shows a no-break or other Unicode space put in, as git diff -w does', () => {
    for (const space of ['\u00a0', '\u2003', '\u3000', '\ufeff']) {
      const diff = computeLineDiff('if (user == "admin") {\n', `if (user == "admin${space}") {\n`, { ignoreWhitespace: true });
      expect([diff.additions, diff.deletions]).toEqual([1, 1]);
    }
  });
});
