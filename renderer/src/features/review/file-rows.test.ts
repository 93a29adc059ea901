import { describe, expect, it } from 'vitest';
import { changedFile } from '../../../../shared/testing/changed-file.ts';
import type { FileRow } from './file-rows.ts';
import { conflictSentence, fileOrder, filterChanges, flatRows, stepFile, stickyFolders, treeRows } from './file-rows.ts';

const change = changedFile;

const CHANGES = [
  change('src/lib/deep/a.ts'),
  change('README.md'),
  change('src/main.ts', { drift: 'conflict' }),
  change('src/lib/deep/b.ts', { kind: 'added' }),
  change('docs/new-name.md', { kind: 'renamed', oldPath: 'docs/old-name.md' }),
];

describe('file rows', () => {
  const draw = (r: FileRow) =>
    r.kind === 'section'
      ? `# ${r.name} (${r.count})`
      : `${'  '.repeat(r.depth)}${r.kind === 'file' ? r.folder : ''}${r.name}${r.kind === 'dir' ? `/ (${r.files}${r.conflicts ? `, ${r.conflicts}!` : ''})` : ''}`;

  it('draws a tree with conflicts pinned on top, folders first, folded single-folder chains and counts', () => {
    const rows = treeRows(CHANGES);
    expect(rows.map(draw)).toEqual([
      '# Conflicts (1)',
      'src/main.ts',
      '# Changes (4)',
      'docs/ (1)',
      '  new-name.md',
      'src/lib/deep/ (2)',
      '  a.ts',
      '  b.ts',
      'README.md',
    ]);
    expect(fileOrder(rows)).toEqual([
      'src/main.ts',
      'docs/new-name.md',
      'src/lib/deep/a.ts',
      'src/lib/deep/b.ts',
      'README.md',
    ]);
  });

  it('draws no headings when nothing is in conflict', () => {
    const clean = CHANGES.map((c) => ({ ...c, drift: 'clean' as const }));
    expect(treeRows(clean).map(draw)).toEqual([
      'docs/ (1)',
      '  new-name.md',
      'src/ (3)',
      '  lib/deep/ (2)',
      '    a.ts',
      '    b.ts',
      '  main.ts',
      'README.md',
    ]);
  });

  it('hides the contents of collapsed folders', () => {
    const rows = treeRows(CHANGES, new Set(['src/lib/deep', 'docs']));
    expect(rows.map((r) => r.key)).toEqual(['\u0000conflicts', 'src/main.ts', '\u0000changes', 'docs/', 'src/lib/deep/', 'README.md']);
  });

  it('lists flat rows by path, each path once: muted folder part and name', () => {
    const rows = flatRows(CHANGES);
    expect(rows.map(draw)).toEqual([
      '# Conflicts (1)',
      'src/main.ts',
      '# Changes (4)',
      'README.md',
      'docs/new-name.md',
      'src/lib/deep/a.ts',
      'src/lib/deep/b.ts',
    ]);
    const deep = rows.find((r) => r.key === 'src/lib/deep/a.ts');
    expect(deep).toMatchObject({ folder: 'src/lib/deep/', name: 'a.ts' });
  });

  it('pins the folders of the first visible row, outermost first', () => {
    const clean = CHANGES.map((c) => ({ ...c, drift: 'clean' as const }));
    const rows = treeRows(clean);
    const names = (top: number) => stickyFolders(rows, top).map((r) => r.path);
    expect(names(0)).toEqual([]);
    // Row 1 is docs/new-name.md: its folder stays pinned while it scrolls by.
    expect(names(1)).toEqual(['docs']);
    // Row 3 is src/lib/deep/: "src" covers it, so the pinned chain follows a.ts below.
    expect(names(3)).toEqual(['src', 'src/lib/deep']);
    expect(names(7)).toEqual([]);
    expect(stickyFolders(treeRows(CHANGES), 1)).toEqual([]);
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
