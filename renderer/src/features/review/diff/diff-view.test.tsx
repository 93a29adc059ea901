import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DiffView } from './diff-view.tsx';
import type { DiffFile } from './file-diff.ts';

const text = (file: DiffFile, mode: 'split' | 'unified' = 'split') =>
  renderToStaticMarkup(<DiffView file={file} mode={mode} />);
const base: DiffFile = {
  oldPath: 'src/a.ts',
  newPath: 'src/a.ts',
  status: 'modified',
  binary: false,
  oldSize: 10,
  newSize: 12,
};

describe('DiffView (static render)', () => {
  it('labels a text diff, counts its lines and offers the layout toggle and navigation', () => {
    const html = text({ ...base, oldText: 'const a = 1;\n', newText: 'const a = 2;\nconst b = 3;\n' });
    expect(html).toContain('aria-label="Changes in src/a.ts"');
    expect(html).toContain('role="table"');
    expect(html).toContain('aria-label="Side-by-side diff of src/a.ts"');
    expect(html).toContain('aria-label="2 lines added, 1 line removed"');
    expect(html).toContain('role="radiogroup"');
    expect(html).toContain('aria-label="Next change (n or j)"');
    expect(text({ ...base, oldText: 'x\n', newText: 'y\n' }, 'unified')).toContain(
      'aria-label="Unified diff of src/a.ts"',
    );
  });

  it('shows a rename as old -> new', () => {
    const html = text({ ...base, status: 'renamed', newPath: 'lib/b.ts', oldText: 'x\n', newText: 'y\n' });
    expect(html).toContain('aria-label="src/a.ts renamed to lib/b.ts"');
  });

  it('notes mode and type changes in the header, and a line-ending change in a banner', () => {
    const html = text({ ...base, oldMode: 0o100644, newMode: 0o100755, oldText: 'a\r\n', newText: 'a\n' });
    expect(html).toContain('mode 100644 → 100755');
    expect(html).toContain('Line endings changed from CRLF to LF');
    expect(html).not.toContain('CRLF → LF');
    const type = text({
      ...base,
      status: 'type_changed',
      oldType: 'file',
      newType: 'symlink',
      oldText: 'x\n',
      newText: '../x\n',
    });
    expect(type).toContain('file → symlink');
  });

  it('gates a large diff with its size and a Show anyway button', () => {
    const html = text({ ...base, tooLarge: true, additions: 40000, deletions: 8213 });
    expect(html).toContain('This file has 48,213 changed lines.');
    expect(html).toContain('Show anyway');
    expect(html).not.toContain('role="table"');
  });

  it('shows a binary file by its sizes, and an image file side by side', () => {
    const binary = text({ ...base, binary: true, oldSize: 2048, newSize: 3072 });
    expect(binary).toContain('Binary file not shown');
    expect(binary).toContain('2 KB');
    expect(binary).toContain('3 KB');
    expect(binary).toContain('+1 KB (+50%)');
    const image = text({
      ...base,
      binary: true,
      oldImageUrl: 'data:image/png;base64,AA==',
      newImageUrl: null,
      status: 'deleted',
      newPath: null,
    });
    expect(image).toContain('aria-label="Before"');
    expect(image).toContain('Image removed');
  });

  it('explains the empty cases in words', () => {
    expect(text({ ...base, status: 'mode_changed', oldMode: 0o100644, newMode: 0o100755 })).toContain(
      'Only the file mode changed',
    );
    expect(text({ ...base, status: 'renamed', newPath: 'b.ts', oldText: 'x\n', newText: 'x\n' })).toContain(
      'File renamed without changes',
    );
    expect(text({ ...base, oldText: 'same\n', newText: 'same\n' })).toContain('No changes');
  });
});
