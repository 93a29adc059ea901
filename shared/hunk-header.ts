/** The `@@` line of a numbered hunk, as `plans diff` prints it and `plans diff --json` gives it. */
import type { PatchHunk } from './patch-selection.ts';

/** `@@ -a,b +c,d @@`, counts of one left out as git leaves them out. */
export function hunkHeader(hunk: Pick<PatchHunk, 'oldStart' | 'oldLines' | 'newStart' | 'newLines'>): string {
  const span = (start: number, lines: number) => (lines === 1 ? `${start}` : `${start},${lines}`);
  return `@@ -${span(hunk.oldStart, hunk.oldLines)} +${span(hunk.newStart, hunk.newLines)} @@`;
}
