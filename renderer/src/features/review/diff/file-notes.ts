/**
 * The short notes a file header carries (mode, type and line-ending changes) and the sentence
 * shown when there is no text change to draw.
 */
import type { DiffFile } from './file-diff.ts';
import { formatMode } from './format.ts';
import type { EolStyle } from './text-lines.ts';

/** "mode 100644 → 100755" when the mode changed, else null. */
export function modeChangeNote(file: DiffFile): string | null {
  if (file.oldMode == null || file.newMode == null || file.oldMode === file.newMode) return null;
  return `mode ${formatMode(file.oldMode)} \u2192 ${formatMode(file.newMode)}`;
}

/** "file → symlink" when the entry type changed, else null. */
export function typeChangeNote(file: DiffFile): string | null {
  if (!file.oldType || !file.newType || file.oldType === file.newType) return null;
  return `${file.oldType} \u2192 ${file.newType}`;
}

const EOL_NAMES: Record<EolStyle, string> = { lf: 'LF', crlf: 'CRLF', mixed: 'mixed line endings', none: '' };

/**
 * The line-ending note: "CRLF" or "mixed line endings" when the file is not plain LF, else null.
 * A whole-file switch between LF and CRLF is a `banner` ("Line endings changed from CRLF to LF")
 * instead of a mark on every line; `markLines` asks for marks on CRLF lines where endings mix.
 */
export function eolNote(
  oldStyle: EolStyle,
  newStyle: EolStyle,
): { note: string | null; markLines: boolean; banner: string | null } {
  const known = [oldStyle, newStyle].filter((s) => s !== 'none');
  const mixed = known.includes('mixed');
  if (known.length === 2 && oldStyle !== newStyle) {
    if (!mixed) {
      return {
        note: null,
        markLines: false,
        banner: `Line endings changed from ${EOL_NAMES[oldStyle]} to ${EOL_NAMES[newStyle]}`,
      };
    }
    return { note: `${EOL_NAMES[oldStyle]} \u2192 ${EOL_NAMES[newStyle]}`, markLines: true, banner: null };
  }
  if (mixed) return { note: EOL_NAMES.mixed, markLines: true, banner: null };
  if (known[0] === 'crlf') return { note: 'CRLF', markLines: false, banner: null };
  return { note: null, markLines: false, banner: null };
}

/** Notes for a header: type and mode changes, in that order. */
export function fileNotes(file: DiffFile): string[] {
  return [typeChangeNote(file), modeChangeNote(file)].filter((note): note is string => note !== null);
}

/** The title and detail for a file whose content did not change (or is not available). */
export function emptyMessage(file: DiffFile, hasText: boolean): { title: string; detail: string } {
  const modeChange = modeChangeNote(file);
  if (file.status === 'mode_changed' || (modeChange && !hasText)) {
    return { title: 'Only the file mode changed', detail: modeChange ?? 'The content is the same.' };
  }
  if (file.status === 'renamed' || (file.oldPath && file.newPath && file.oldPath !== file.newPath)) {
    return { title: 'File renamed without changes', detail: 'The content is the same at the new path.' };
  }
  if (file.status === 'type_changed')
    return { title: 'Only the file type changed', detail: typeChangeNote(file) ?? '' };
  if (!hasText) return { title: 'No content to show', detail: 'The text of this file was not provided.' };
  if (file.status === 'added') return { title: 'Empty file added', detail: 'The new file has no content.' };
  if (file.status === 'deleted')
    return { title: 'Empty file deleted', detail: 'The deleted file had no content.' };
  return { title: 'No changes', detail: 'Both sides have the same content.' };
}
