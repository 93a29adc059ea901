/**
 * Sample files for the diff viewer harness (diff-harness.html): a small code change, a
 * 10,000-line file, renames, binary and image files, the large-file gate and the empty states.
 * Generated, not read from disk, so the harness runs on any machine.
 */
import type { DiffFile } from '../../features/review/diff/file-diff.ts';
import { generatedModule, SMALL_NEW, SMALL_OLD } from './harness-texts.ts';

/** A named sample of the harness. */
export interface Sample {
  id: string;
  label: string;
  file: DiffFile;
}

/** The harness samples; `images` are data URLs made by the page (a canvas), `big` builds the gated text on demand. */
export function createSamples(images: {
  before: string;
  after: string;
  beforeSize: number;
  afterSize: number;
}): Sample[] {
  const bigOld = generatedModule(10_000, 'old');
  const bigNew = generatedModule(10_000, 'new');
  const crlfOld = 'first line\r\nsecond line\r\nthird line\r\nlast line without newline';
  const crlfNew = 'first line\r\nsecond line\nthird line, edited\r\nlast line without newline\r\n';
  return [
    {
      id: 'code',
      label: 'Small code change',
      file: {
        oldPath: 'src/tools/load-tool.ts',
        newPath: 'src/tools/load-tool.ts',
        status: 'modified',
        binary: false,
        oldSize: SMALL_OLD.length,
        newSize: SMALL_NEW.length,
        oldText: SMALL_OLD,
        newText: SMALL_NEW,
      },
    },
    {
      id: 'big',
      label: '10,000-line file',
      file: {
        oldPath: 'src/generated/table.ts',
        newPath: 'src/generated/table.ts',
        status: 'modified',
        binary: false,
        oldSize: bigOld.length,
        newSize: bigNew.length,
        oldText: bigOld,
        newText: bigNew,
      },
    },
    {
      id: 'rename',
      label: 'Rename with edits',
      file: {
        oldPath: 'src/utils/format-date.ts',
        newPath: 'src/lib/dates/format.ts',
        status: 'renamed',
        binary: false,
        oldSize: 120,
        newSize: 131,
        oldText: 'export function formatDate(d: Date): string {\n  return d.toISOString().slice(0, 10);\n}\n',
        newText:
          '/** YYYY-MM-DD in UTC. */\nexport function formatDate(date: Date): string {\n  return date.toISOString().slice(0, 10);\n}\n',
      },
    },
    {
      id: 'rename-only',
      label: 'Rename only',
      file: {
        oldPath: 'docs/setup.md',
        newPath: 'docs/getting-started.md',
        status: 'renamed',
        binary: false,
        oldSize: 12,
        newSize: 12,
        oldText: '# Setup\n',
        newText: '# Setup\n',
      },
    },
    {
      id: 'binary',
      label: 'Binary file',
      file: {
        oldPath: 'assets/engine.wasm',
        newPath: 'assets/engine.wasm',
        status: 'modified',
        binary: true,
        oldSize: 1_482_113,
        newSize: 1_530_972,
      },
    },
    {
      id: 'image',
      label: 'Image',
      file: {
        oldPath: 'assets/icon.png',
        newPath: 'assets/icon.png',
        status: 'modified',
        binary: true,
        oldSize: images.beforeSize,
        newSize: images.afterSize,
        oldImageUrl: images.before,
        newImageUrl: images.after,
      },
    },
    {
      id: 'gate',
      label: 'Large-file gate',
      file: {
        oldPath: 'data/fixtures.json',
        newPath: 'data/fixtures.json',
        status: 'modified',
        binary: false,
        oldSize: 9_812_331,
        newSize: 11_002_114,
        tooLarge: true,
        additions: 40_000,
        deletions: 8_213,
      },
    },
    {
      id: 'mode',
      label: 'Mode change only',
      file: {
        oldPath: 'scripts/release.sh',
        newPath: 'scripts/release.sh',
        status: 'mode_changed',
        binary: false,
        oldSize: 812,
        newSize: 812,
        oldMode: 0o100644,
        newMode: 0o100755,
      },
    },
    {
      id: 'crlf',
      label: 'Line endings',
      file: {
        oldPath: 'notes/todo.txt',
        newPath: 'notes/todo.txt',
        status: 'modified',
        binary: false,
        oldSize: crlfOld.length,
        newSize: crlfNew.length,
        oldText: crlfOld,
        newText: crlfNew,
      },
    },
    {
      id: 'added',
      label: 'Added file',
      file: {
        oldPath: null,
        newPath: 'config/bindery.yaml',
        status: 'added',
        binary: false,
        oldSize: null,
        newSize: 96,
        newText:
          'name: review\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n',
      },
    },
    {
      id: 'deleted',
      label: 'Deleted file',
      file: {
        oldPath: 'legacy/old-loader.py',
        newPath: null,
        status: 'deleted',
        binary: false,
        oldSize: 71,
        newSize: null,
        oldText:
          'def load(path):\n    """Old loader."""\n    with open(path) as f:\n        return f.read()\n',
      },
    },
  ];
}
