import { describe, expect, it } from 'vitest';
import { WORD_DIFF_MAX_LENGTH, wordChanges } from './word-diff.ts';

const cut = (text: string, ranges: Array<{ start: number; end: number }>) =>
  ranges.map((r) => text.slice(r.start, r.end));

describe('wordChanges', () => {
  it('marks the changed words on each side', () => {
    const a = '  const x = foo(a, b);';
    const b = '  const y = foo(a, c);';
    const changes = wordChanges(a, b);
    expect(changes).not.toBeNull();
    expect(cut(a, changes!.old)).toEqual(['x', 'b']);
    expect(cut(b, changes!.new)).toEqual(['y', 'c']);
  });

  it('marks a pure insertion only on the new side', () => {
    const changes = wordChanges('return value;', 'return await value;');
    expect(changes!.old).toEqual([]);
    expect(cut('return await value;', changes!.new)).toEqual(['await ']);
  });

  it('shows whitespace-only changes (indentation, tabs)', () => {
    const changes = wordChanges('    foo();', '\tfoo();');
    expect(cut('    foo();', changes!.old)).toEqual(['    ']);
    expect(cut('\tfoo();', changes!.new)).toEqual(['\t']);
  });

  it('merges adjacent changed parts into one range', () => {
    const changes = wordChanges('a b c d', 'a x y d');
    expect(cut('a b c d', changes!.old)).toEqual(['b c']);
    expect(cut('a x y d', changes!.new)).toEqual(['x y']);
  });

  it('gives nothing for equal lines', () => {
    expect(wordChanges('same', 'same')).toBeNull();
  });

  it('gives nothing when the lines are mostly different (marks would be noise)', () => {
    expect(wordChanges('import { a } from "b";', 'export default function render() {}')).toBeNull();
  });

  it('skips very long lines', () => {
    const long = 'x'.repeat(WORD_DIFF_MAX_LENGTH + 1);
    expect(wordChanges(long, `${long} y`)).toBeNull();
  });

  it('marks a change between blank lines of different whitespace', () => {
    const changes = wordChanges('', '   ');
    expect(changes).toEqual({ old: [], new: [{ start: 0, end: 3 }] });
  });

  it('ranges always lie inside their line and never overlap', () => {
    const pairs: Array<[string, string]> = [
      ['function add(a, b) { return a + b; }', 'function add(a, b, c) { return a + b + c; }'],
      ['x = [1, 2, 3]', 'x = [1, 2, 4, 5]'],
      ['€uro ünïcode 😀 line', '€uro unicode 😀 line!'],
    ];
    for (const [a, b] of pairs) {
      const changes = wordChanges(a, b);
      for (const [text, ranges] of [
        [a, changes?.old ?? []],
        [b, changes?.new ?? []],
      ] as const) {
        let last = -1;
        for (const r of ranges) {
          expect(r.start).toBeGreaterThan(last);
          expect(r.end).toBeGreaterThan(r.start);
          expect(r.end).toBeLessThanOrEqual(text.length);
          last = r.end;
        }
      }
    }
  });
});
