/**
 * Matched lines (line-match.ts) as changes and as hunks with context, joined as git joins them:
 * one cut for the viewer's change blocks, `plans diff` and the hunks a partial commit numbers.
 */
import { internLines, matchLines } from './line-match.ts';

/** One run of changed lines between matches: `dels` old lines from `oldAt` replaced by `adds` new lines from `newAt` (0-based). */
export interface LineChange {
  oldAt: number;
  newAt: number;
  dels: number;
  adds: number;
}

/** The changes left between matched pairs [i0, j0, i1, j1, ...] of sides with `n` and `m` lines, in file order. */
export function lineChanges(matches: ArrayLike<number>, n: number, m: number): LineChange[] {
  const changes: LineChange[] = [];
  let i = 0;
  let j = 0;
  for (let p = 0; p <= matches.length; p += 2) {
    const mi = p < matches.length ? matches[p]! : n;
    const mj = p < matches.length ? matches[p + 1]! : m;
    if (mi > i || mj > j) changes.push({ oldAt: i, newAt: j, dels: mi - i, adds: mj - j });
    i = mi + 1;
    j = mj + 1;
  }
  return changes;
}

/**
 * The changes between two texts' lines (splitLines), from the shared line match. A side with no
 * lines (a file added or deleted) matches nothing: its lines are neither interned nor matched.
 */
export function matchedChanges(oldLines: readonly string[], newLines: readonly string[]): LineChange[] {
  if (oldLines.length === 0 || newLines.length === 0) return lineChanges([], oldLines.length, newLines.length);
  const [a, b] = internLines(oldLines, newLines);
  return lineChanges(matchLines(a, b), a.length, b.length);
}

/** A hunk: old lines [oldFrom, oldTo) and new lines [newFrom, newTo), context included, and the changes in it. */
export interface LineHunk {
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
  changes: LineChange[];
}

/**
 * The changes of a file whose old side has `n` lines, cut into hunks with `context` unchanged
 * lines around them; changes at most 2 × `context` lines apart share a hunk, as in git.
 */
export function lineHunks(changes: readonly LineChange[], n: number, context: number): LineHunk[] {
  const hunks: LineHunk[] = [];
  let k = 0;
  while (k < changes.length) {
    const from = k;
    const first = changes[k++]!;
    let last = first;
    while (k < changes.length && changes[k]!.oldAt - (last.oldAt + last.dels) <= 2 * context) last = changes[k++]!;
    // Unchanged lines before a change number the same on both sides: the first change of a file has oldAt === newAt.
    const lead = Math.min(context, first.oldAt);
    const trail = Math.min(context, n - last.oldAt - last.dels);
    hunks.push({
      oldFrom: first.oldAt - lead,
      oldTo: last.oldAt + last.dels + trail,
      newFrom: first.newAt - lead,
      newTo: last.newAt + last.adds + trail,
      changes: changes.slice(from, k),
    });
  }
  return hunks;
}

/** The `@@ -oldStart,oldLines +newStart,newLines @@` numbers of a hunk: a side with no lines starts at the line before. */
export function hunkNumbers(hunk: LineHunk): { oldStart: number; oldLines: number; newStart: number; newLines: number } {
  const oldLines = hunk.oldTo - hunk.oldFrom;
  const newLines = hunk.newTo - hunk.newFrom;
  return {
    oldStart: oldLines === 0 ? hunk.oldFrom : hunk.oldFrom + 1,
    oldLines,
    newStart: newLines === 0 ? hunk.newFrom : hunk.newFrom + 1,
    newLines,
  };
}

/** One line of a hunk in order: ' ' context, '-' deleted, '+' added, with its 0-based index on each side. */
export type HunkLineVisit = (sign: ' ' | '-' | '+', oldIndex: number, newIndex: number) => void;

/** Visits a hunk's lines in the order a unified diff prints them (each change's deletions, then its additions). */
export function eachHunkLine(hunk: LineHunk, visit: HunkLineVisit): void {
  let i = hunk.oldFrom;
  let j = hunk.newFrom;
  for (const change of hunk.changes) {
    while (i < change.oldAt) visit(' ', i++, j++);
    for (let d = 0; d < change.dels; d++) visit('-', i++, j);
    for (let a = 0; a < change.adds; a++) visit('+', i, j++);
  }
  while (i < hunk.oldTo) visit(' ', i++, j++);
}
