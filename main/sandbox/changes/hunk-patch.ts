/**
 * The unified diff `plans diff` prints, cut into the very hunks a partial commit numbers
 * (shared/patch-selection.ts), each `@@` line ending in its id (`@@ -10,7 +10,8 @@ hunk 2`): git
 * apply reads the text after the second `@@` as a section heading and ignores it.
 */
import { hunkHeader } from '../../../shared/hunk-header.ts';
import { filePatch, type PatchHunk, type PatchLine } from '../../../shared/patch-selection.ts';

/** A file's patch text with its numbered hunks and line counts. */
export interface HunkPatch {
  patch: string;
  hunks: PatchHunk[];
  additions: number;
  deletions: number;
}

/** The patch of `before` → `after` under the `---`/`+++` names given; throws for binary text. */
export function hunkPatch(oldName: string, newName: string, before: string, after: string): HunkPatch {
  const { hunks } = filePatch(before, after);
  const out: string[] = [`--- ${oldName}\n`, `+++ ${newName}\n`];
  let additions = 0;
  let deletions = 0;
  for (const hunk of hunks) {
    out.push(`${hunkHeader(hunk)} hunk ${hunk.id}\n`);
    for (const line of hunk.lines) {
      if (line.kind === 'add') additions++;
      if (line.kind === 'del') deletions++;
      out.push(printed(line));
    }
  }
  return { patch: hunks.length === 0 ? '' : out.join(''), hunks, additions, deletions };
}

function printed(line: PatchLine): string {
  const sign = line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' ';
  return line.eol === '' ? `${sign}${line.text}\n\\ No newline at end of file\n` : `${sign}${line.text}${line.eol}`;
}
