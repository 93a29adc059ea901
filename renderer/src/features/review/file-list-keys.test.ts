import { describe, expect, it } from 'vitest';
import type { ChangedFile } from '../../../../shared/dto.ts';
import { changedFile } from '../../../../shared/testing/changed-file.ts';
import { listKeyAction } from './file-list-keys.ts';
import { treeRows } from './file-rows.ts';

const change = (path: string, drift: ChangedFile['drift'] = 'clean'): ChangedFile => changedFile(path, { drift });

// Rows: 0 "# Conflicts", 1 x.ts, 2 "# Changes", 3 src/, 4 a.ts, 5 b.ts, 6 README.md
const ROWS = treeRows([change('x.ts', 'conflict'), change('src/a.ts'), change('src/b.ts'), change('README.md')]);

describe('file list keys', () => {
  it('moves over files and folders and skips the headings', () => {
    expect(ROWS.map((r) => r.kind)).toEqual(['section', 'file', 'section', 'dir', 'file', 'file', 'file']);
    expect(listKeyAction(ROWS, -1, 'ArrowDown')).toEqual({ kind: 'move', index: 1 });
    expect(listKeyAction(ROWS, 1, 'ArrowDown')).toEqual({ kind: 'move', index: 3 });
    expect(listKeyAction(ROWS, 3, 'ArrowUp')).toEqual({ kind: 'move', index: 1 });
    expect(listKeyAction(ROWS, 1, 'ArrowUp')).toBeNull();
    expect(listKeyAction(ROWS, 6, 'ArrowDown')).toBeNull();
    expect(listKeyAction(ROWS, 4, 'Home')).toEqual({ kind: 'move', index: 1 });
    expect(listKeyAction(ROWS, 1, 'End')).toEqual({ kind: 'move', index: 6 });
  });

  it('folds with the side arrows and climbs to the folder above', () => {
    expect(listKeyAction(ROWS, 3, 'ArrowLeft')).toEqual({ kind: 'fold', index: 3, open: false });
    expect(listKeyAction(ROWS, 3, 'ArrowRight')).toEqual({ kind: 'move', index: 4 });
    expect(listKeyAction(ROWS, 5, 'ArrowLeft')).toEqual({ kind: 'move', index: 3 });
    expect(listKeyAction(ROWS, 6, 'ArrowLeft')).toBeNull();
    const folded = treeRows([change('src/a.ts')], new Set(['src']));
    expect(listKeyAction(folded, 0, 'ArrowRight')).toEqual({ kind: 'fold', index: 0, open: true });
  });

  it('toggles the commit checkbox of a row with Space', () => {
    expect(listKeyAction(ROWS, 4, ' ')).toEqual({ kind: 'check', index: 4 });
    expect(listKeyAction(ROWS, 3, ' ')).toEqual({ kind: 'check', index: 3 });
    expect(listKeyAction(ROWS, 0, ' ')).toBeNull();
    expect(listKeyAction(ROWS, 4, 'x')).toBeNull();
  });
});
