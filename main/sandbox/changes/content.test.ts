import { diffLines } from 'diff';
import { describe, expect, it } from 'vitest';
import { lineCounts } from './content.ts';

/** The counts of a plain jsdiff of the whole texts: what lineCounts must equal. */
function plainCounts(before: string, after: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const part of diffLines(before, after)) {
    if (part.added) additions += part.count ?? 0;
    else if (part.removed) deletions += part.count ?? 0;
  }
  return { additions, deletions };
}

/** A small deterministic generator, so a failure names its seed. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('lineCounts', () => {
  it('counts like a whole-text diff at edges: no newline at the end, edits in the first or last line, shared partial lines', () => {
    const cases: Array<[string, string]> = [
      ['', ''],
      ['', 'a\n'],
      ['a\n', ''],
      ['a', 'a\n'],
      ['a\n', 'a'],
      ['x\ny', 'x\nyz\n'],
      ['y\n', 'xy\n'],
      ['\nfoo\n', 'foo\n'],
      ['a\nb\nc\n', 'a\nB\nc\n'],
      ['a\nb\nc', 'a\nb\nd'],
      ['same\nsame\nsame\n', 'same\nsame\n'],
      ['line 1\nline 2\n', 'line 1\nline 2\nchanged\n'],
    ];
    for (const [before, after] of cases) expect(lineCounts(before, after), JSON.stringify([before, after])).toEqual(plainCounts(before, after));
  });

  it('counts like a whole-text diff on random edits of random texts', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const random = generator(seed);
      const pick = (options: string[]) => options[Math.floor(random() * options.length)]!;
      const lines = Array.from({ length: Math.floor(random() * 12) }, () => pick(['a', 'b', 'c', 'ab', '', 'b c', 'x\r', '\r']));
      const before = lines.join('\n') + pick(['', '\n']);
      const edited = [...lines];
      for (let edits = Math.floor(random() * 4); edits > 0; edits--) {
        const at = Math.floor(random() * (edited.length + 1));
        const kind = pick(['insert', 'delete', 'change']);
        if (kind === 'insert') edited.splice(at, 0, pick(['a', 'z', 'b', 'y\r']));
        else if (kind === 'delete') edited.splice(at, 1);
        else edited[at] = `${edited[at] ?? ''}${pick(['a', 'x'])}`;
      }
      const after = edited.join('\n') + pick(['', '\n']);
      expect(lineCounts(before, after), `seed ${seed}`).toEqual(plainCounts(before, after));
    }
  });
});
