import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { unifiedPatch } from './patch.ts';

/** The hunks git writes for the same pair, headers with both counts and no function context. */
function gitHunks(before: string, after: string): string {
  const dir = tempDir('bindery-patch-');
  fs.writeFileSync(path.join(dir, 'a'), before);
  fs.writeFileSync(path.join(dir, 'b'), after);
  let out = '';
  try {
    execFileSync('git', ['diff', '--no-index', '--no-color', '-U3', 'a', 'b'], { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    out = String((error as { stdout?: string }).stdout);
  }
  const hunks = out.slice(out.indexOf('\n@@') + 1);
  return hunks.replace(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@.*$/gm, (_, a, b, c, d) => `@@ -${a},${b ?? 1} +${c},${d ?? 1} @@`);
}

const numbered = (count: number, edit: (n: number) => string | null = () => null): string =>
  Array.from({ length: count }, (_, i) => edit(i + 1) ?? `line ${i + 1}\n`).join('');

describe('unifiedPatch', () => {
  it('writes the hunks git writes: joined and separate changes, additions at the start, no newline at the end', () => {
    const cases: Array<[string, string]> = [
      ['a\nb\nc\n', 'a\nB\nc\nd\n'],
      [numbered(30), numbered(30, (n) => (n === 2 ? 'two\n' : n === 27 ? 'twenty-seven\n' : null))],
      [numbered(30), numbered(30, (n) => (n === 10 ? 'ten\n' : n === 15 ? 'fifteen\n' : null))],
      [numbered(5), `first\n${numbered(5)}`],
      ['x\ny', 'x\ny\n'],
      ['x\ny\n', 'x\nz'],
    ];
    for (const [before, after] of cases) {
      const { patch, additions, deletions } = unifiedPatch('a/f', 'b/f', before, after);
      expect(patch.split('\n').slice(0, 2)).toEqual(['--- a/f', '+++ b/f']);
      const hunks = patch.slice(patch.indexOf('@@'));
      expect(hunks, JSON.stringify([before, after])).toBe(gitHunks(before, after));
      expect(additions).toBe(hunks.split('\n').filter((l) => l.startsWith('+')).length);
      expect(deletions).toBe(hunks.split('\n').filter((l) => l.startsWith('-')).length);
    }
  });

  it('writes an added file as one hunk from nothing', () => {
    expect(unifiedPatch('/dev/null', 'b/new', '', 'one\ntwo\n').patch).toBe('--- /dev/null\n+++ b/new\n@@ -0,0 +1,2 @@\n+one\n+two\n');
  });
});
