/**
 * The unified diff `plans diff` prints, cut into the very hunks a partial commit numbers
 * (shared/patch-selection.ts), each `@@` line ending in its id (`@@ -10,7 +10,8 @@ hunk 2`): git
 * apply reads the text after the second `@@` as a section heading and ignores it.
 */
import { eachHunkLine, hunkNumbers, lineHunks, matchedChanges } from '../../../shared/diff/hunks.ts';
import { splitLines } from '../../../shared/diff/line-match.ts';
import { hunkHeader } from '../../../shared/hunk-header.ts';
import { filePatch, PATCH_CONTEXT, type PatchHunk } from '../../../shared/patch-selection.ts';

/** A file's patch text with its numbered hunks and line counts. */
export interface HunkPatch {
  patch: string;
  hunks: PatchHunk[];
  additions: number;
  deletions: number;
}

/**
 * The patch of `before` → `after` under the `---`/`+++` names given (texts without NUL bytes),
 * its fields added to `head`. The text is written from the lines as read; `hunks`, line by line,
 * is made from the same match only when read (`--json`), so printing a diff builds no object per line.
 */
export function hunkPatch<T extends object>(oldName: string, newName: string, before: string, after: string, head: T = {} as T): T & HunkPatch {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const changes = matchedChanges(oldLines, newLines);
  const cut = lineHunks(changes, oldLines.length, PATCH_CONTEXT);
  const out: string[] = cut.length === 0 ? [] : [`--- ${oldName}\n`, `+++ ${newName}\n`];
  cut.forEach((hunk, index) => {
    out.push(`${hunkHeader(hunkNumbers(hunk))} hunk ${index + 1}\n`);
    eachHunkLine(hunk, (sign, i, j) => out.push(printed(sign, sign === '+' ? newLines[j]! : oldLines[i]!)));
  });
  const result = Object.assign(head, { patch: out.join(''), additions: 0, deletions: 0 }) as T & HunkPatch;
  for (const change of changes) {
    result.additions += change.adds;
    result.deletions += change.dels;
  }
  // Enumerable, so a copy or JSON of the diff has the hunks as if they had been made at once. Once
  // read they become a plain field: the getter's texts are let go, and the field can be set or deleted.
  return Object.defineProperty(result, 'hunks', {
    enumerable: true,
    configurable: true,
    get: () => settle(result, filePatch(before, after, changes).hunks),
    set: (value: PatchHunk[]) => settle(result, value),
  });
}

/** `hunks` as a plain field of `result`, in place of the getter that made it. */
function settle(result: HunkPatch, hunks: PatchHunk[]): PatchHunk[] {
  Object.defineProperty(result, 'hunks', { value: hunks, enumerable: true, writable: true, configurable: true });
  return hunks;
}

/** A line as a unified diff prints it: its sign, the line with its own ending, git's marker where it has none. */
function printed(sign: ' ' | '-' | '+', line: string): string {
  return line.endsWith('\n') ? `${sign}${line}` : `${sign}${line}\n\\ No newline at end of file\n`;
}
