import { describe, expect, it } from 'vitest';
import type { ChangedFile } from '../../../../shared/dto.ts';
import { conflictSentence, fileOrder, filterChanges, flatRows, stepFile, treeRows } from './file-rows.ts';

const change = (path: string, patch: Partial<ChangedFile> = {}): ChangedFile => ({
  path,
  oldPath: null,
  kind: 'modified',
  oldType: 'file',
  newType: 'file',
  oldMode: 0o100644,
  newMode: 0o100644,
  size: 1,
  binary: false,
  additions: 1,
  deletions: 0,
  drift: 'clean',
  driftReason: null,
  ...patch,
});

const CHANGES = [
  change('src/lib/deep/a.ts'),
  change('README.md'),
  change('src/main.ts', { drift: 'conflict' }),
  change('src/lib/deep/b.ts', { kind: 'added' }),
  change('docs/new-name.md', { kind: 'renamed', oldPath: 'docs/old-name.md' }),
];

describe('file rows', () => {
  it('draws a tree with folders first, folded single-folder chains and counts', () => {
    const rows = treeRows(CHANGES);
    expect(
      rows.map(
        (r) =>
          `${'  '.repeat(r.depth)}${r.name}${r.kind === 'dir' ? `/ (${r.files}${r.conflicts ? `, ${r.conflicts}!` : ''})` : ''}`,
      ),
    ).toEqual([
      'docs/ (1)',
      '  new-name.md',
      'src/ (3, 1!)',
      '  lib/deep/ (2)',
      '    a.ts',
      '    b.ts',
      '  main.ts',
      'README.md',
    ]);
    expect(fileOrder(rows)).toEqual([
      'docs/new-name.md',
      'src/lib/deep/a.ts',
      'src/lib/deep/b.ts',
      'src/main.ts',
      'README.md',
    ]);
  });

  it('hides the contents of collapsed folders', () => {
    const rows = treeRows(CHANGES, new Set(['src/lib/deep', 'docs']));
    expect(rows.map((r) => r.key)).toEqual(['docs/', 'src/', 'src/lib/deep/', 'src/main.ts', 'README.md']);
  });

  it('lists flat rows by path', () => {
    expect(flatRows(CHANGES).map((r) => r.key)).toEqual([
      'README.md',
      'docs/new-name.md',
      'src/lib/deep/a.ts',
      'src/lib/deep/b.ts',
      'src/main.ts',
    ]);
  });

  it('filters by words, old paths, conflicts and status letters', () => {
    expect(filterChanges(CHANGES, 'deep A.TS').map((c) => c.path)).toEqual(['src/lib/deep/a.ts']);
    expect(filterChanges(CHANGES, 'old-name').map((c) => c.path)).toEqual(['docs/new-name.md']);
    expect(filterChanges(CHANGES, 'conflict').map((c) => c.path)).toEqual(['src/main.ts']);
    expect(filterChanges(CHANGES, ':a').map((c) => c.path)).toEqual(['src/lib/deep/b.ts']);
    expect(filterChanges(CHANGES, '   ')).toHaveLength(5);
  });

  it('steps through files and clamps at the ends', () => {
    const order = ['a', 'b', 'c'];
    expect(stepFile(order, null, 1)).toBe('a');
    expect(stepFile(order, null, -1)).toBe('c');
    expect(stepFile(order, 'b', 1)).toBe('c');
    expect(stepFile(order, 'c', 1)).toBe('c');
    expect(stepFile(order, 'a', -1)).toBe('a');
    expect(stepFile(order, 'gone', 1)).toBe('a');
    expect(stepFile([], 'a', 1)).toBeNull();
  });
});

describe('conflictSentence', () => {
  it('capitalises and ends the core reason, with a default', () => {
    expect(conflictSentence('it changed in /x after the sandbox was made')).toBe(
      'It changed in /x after the sandbox was made.',
    );
    expect(conflictSentence('Deleted in the original.')).toBe('Deleted in the original.');
    expect(conflictSentence(null)).toBe('The original changed here too since the sandbox was made.');
  });
});
