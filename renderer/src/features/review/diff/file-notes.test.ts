import { describe, expect, it } from 'vitest';
import type { DiffFile } from './file-diff.ts';
import { emptyMessage, eolNote, fileNotes, modeChangeNote, typeChangeNote } from './file-notes.ts';

const file: DiffFile = {
  oldPath: 'run.sh',
  newPath: 'run.sh',
  status: 'modified',
  binary: false,
  oldSize: 1,
  newSize: 1,
};

describe('mode and type notes', () => {
  it('notes a mode change in git spelling', () => {
    expect(modeChangeNote({ ...file, oldMode: 0o100644, newMode: 0o100755 })).toBe(
      'mode 100644 \u2192 100755',
    );
    expect(modeChangeNote({ ...file, oldMode: 0o100644, newMode: 0o100644 })).toBeNull();
    expect(modeChangeNote({ ...file, oldMode: null, newMode: 0o100644 })).toBeNull();
  });

  it('notes a type change', () => {
    expect(typeChangeNote({ ...file, oldType: 'file', newType: 'symlink' })).toBe('file \u2192 symlink');
    expect(typeChangeNote({ ...file, oldType: 'file', newType: 'file' })).toBeNull();
  });

  it('lists type before mode', () => {
    expect(
      fileNotes({ ...file, oldType: 'file', newType: 'symlink', oldMode: 0o100644, newMode: 0o120000 }),
    ).toEqual(['file \u2192 symlink', 'mode 100644 \u2192 120000']);
    expect(fileNotes(file)).toEqual([]);
  });
});

describe('eolNote', () => {
  it.each([
    ['lf', 'lf', null, false, null],
    ['none', 'lf', null, false, null],
    ['crlf', 'crlf', 'CRLF', false, null],
    ['none', 'crlf', 'CRLF', false, null],
    // A whole-file switch is one banner, not a mark on every line.
    ['lf', 'crlf', null, false, 'Line endings changed from LF to CRLF'],
    ['crlf', 'lf', null, false, 'Line endings changed from CRLF to LF'],
    ['lf', 'mixed', 'LF \u2192 mixed line endings', true, null],
    ['mixed', 'mixed', 'mixed line endings', true, null],
  ] as const)('%s to %s', (oldStyle, newStyle, note, markLines, banner) => {
    expect(eolNote(oldStyle, newStyle)).toEqual({ note, markLines, banner });
  });
});

describe('emptyMessage', () => {
  it('explains each empty case', () => {
    expect(
      emptyMessage({ ...file, status: 'mode_changed', oldMode: 0o100644, newMode: 0o100755 }, true),
    ).toEqual({
      title: 'Only the file mode changed',
      detail: 'mode 100644 \u2192 100755',
    });
    expect(emptyMessage({ ...file, status: 'renamed', oldPath: 'a.ts', newPath: 'b.ts' }, true).title).toBe(
      'File renamed without changes',
    );
    expect(
      emptyMessage({ ...file, status: 'type_changed', oldType: 'file', newType: 'symlink' }, false),
    ).toEqual({
      title: 'Only the file type changed',
      detail: 'file \u2192 symlink',
    });
    expect(emptyMessage(file, false).title).toBe('No content to show');
    expect(emptyMessage({ ...file, status: 'added' }, true).title).toBe('Empty file added');
    expect(emptyMessage({ ...file, status: 'deleted' }, true).title).toBe('Empty file deleted');
    expect(emptyMessage(file, true).title).toBe('No changes');
  });
});
