/**
 * Where patch-selection's hunks and changed lines sit in the viewer: the change key of each drawn
 * line, the hunk each line and row belongs to, and the first row of each hunk (its checkbox).
 * A changed line the patch does not know (an approximate diff) has no key and cannot be chosen.
 */
import { changeKey, type ChangeKey, type FilePatch } from '../../../../../shared/patch-selection.ts';
import type { DiffRow } from '../diff/diff-rows.ts';
import type { LineDiff } from '../diff/line-diff.ts';

/** The viewer's lines tied to the patch. */
export interface LineMap {
  /** By viewer line index: the change key of a choosable changed line, else null. */
  keys: Array<ChangeKey | null>;
  /** By viewer line index: the id of the hunk it lies in, 0 outside every hunk. */
  hunks: Int32Array;
  /** The keys of each hunk's changed lines, by hunk id - 1. */
  hunkKeys: ChangeKey[][];
}

/** Ties the viewer's line diff to the patch of the same two texts. */
export function mapLines(diff: LineDiff, patch: FilePatch): LineMap {
  let maxOld = 0;
  let maxNew = 0;
  for (const line of diff.lines) {
    maxOld = Math.max(maxOld, line.oldNo ?? 0);
    maxNew = Math.max(maxNew, line.newNo ?? 0);
  }
  const oldHunk = new Int32Array(maxOld + 2);
  const newHunk = new Int32Array(maxNew + 2);
  const known = new Set<ChangeKey>();
  const hunkKeys: ChangeKey[][] = [];
  for (const hunk of patch.hunks) {
    const keys: ChangeKey[] = [];
    for (const line of hunk.lines) {
      if (line.oldNo !== null && line.oldNo <= maxOld) oldHunk[line.oldNo] = hunk.id;
      if (line.newNo !== null && line.newNo <= maxNew) newHunk[line.newNo] = hunk.id;
      const key = changeKey(line);
      if (key) {
        keys.push(key);
        known.add(key);
      }
    }
    hunkKeys.push(keys);
  }
  const keys: Array<ChangeKey | null> = [];
  const hunks = new Int32Array(diff.lines.length);
  diff.lines.forEach((line, index) => {
    hunks[index] = line.oldNo !== null ? (oldHunk[line.oldNo] ?? 0) : (newHunk[line.newNo ?? 0] ?? 0);
    if (hunks[index] === 0 && line.newNo !== null) hunks[index] = newHunk[line.newNo] ?? 0;
    const key: ChangeKey | null =
      line.kind === 'del' ? `-${line.oldNo as number}` : line.kind === 'add' ? `+${line.newNo as number}` : null;
    keys.push(key && known.has(key) ? key : null);
  });
  return { keys, hunks, hunkKeys };
}

/** A row's place in a hunk: its id, and whether it is the hunk's first or last drawn row. */
export interface RowHunk {
  id: number;
  first: boolean;
  last: boolean;
}

/** The hunk of every drawn row (null for header rows and rows outside hunks). */
export function rowHunks(rows: readonly DiffRow[], map: LineMap): Array<RowHunk | null> {
  const out: Array<RowHunk | null> = rows.map((row) => {
    if (row.type === 'line') return hunkOf(map, row.line);
    if (row.type === 'pair') return hunkOf(map, row.left) ?? hunkOf(map, row.right);
    return null;
  });
  const seen = new Set<number>();
  for (let i = 0; i < out.length; i++) {
    const here = out[i];
    if (!here) continue;
    here.first = !seen.has(here.id);
    seen.add(here.id);
    here.last = out[i + 1]?.id !== here.id;
  }
  return out;
}

function hunkOf(map: LineMap, line: number): RowHunk | null {
  const id = line >= 0 ? (map.hunks[line] ?? 0) : 0;
  return id > 0 ? { id, first: false, last: false } : null;
}
