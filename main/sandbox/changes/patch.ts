/**
 * A unified diff (the `---`/`+++` headers and `@@` hunks git writes) from the shared line match
 * (shared/diff/), so one reformatted file costs milliseconds, not seconds, and its hunks are the
 * ones the viewer and a partial commit see.
 */
import { eachHunkLine, hunkNumbers, lineChanges, lineHunks } from '../../../shared/diff/hunks.ts';
import { internLines, matchLines, splitLines } from '../../../shared/diff/line-match.ts';

/** The patch of `before` → `after` with `context` lines around each change, and its line counts. */
export function unifiedPatch(oldName: string, newName: string, before: string, after: string, context = 3): { patch: string; additions: number; deletions: number } {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const [a, b] = internLines(oldLines, newLines);
  const hunks = lineHunks(lineChanges(matchLines(a, b), a.length, b.length), a.length, context);
  const out: string[] = [`--- ${oldName}`, `+++ ${newName}`];
  let additions = 0;
  let deletions = 0;
  for (const hunk of hunks) {
    const { oldStart, oldLines: oldCount, newStart, newLines: newCount } = hunkNumbers(hunk);
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    eachHunkLine(hunk, (sign, i, j) => {
      const line = sign === '+' ? newLines[j]! : oldLines[i]!;
      if (sign === '+') additions++;
      if (sign === '-') deletions++;
      const ended = line.endsWith('\n');
      out.push(`${sign}${ended ? line.slice(0, -1) : line}`);
      if (!ended) out.push('\\ No newline at end of file');
    });
  }
  return { patch: `${out.join('\n')}\n`, additions, deletions };
}
