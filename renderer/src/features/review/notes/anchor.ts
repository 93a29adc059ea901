/**
 * Where a review note sits, in words and in the diff: its anchor label ("src/a.ts, lines 10-14
 * (sandbox)"), the panel's groups by file, and which drawn row of a diff a note (or the note being
 * written) goes under.
 */
import type { NoteSide, ReviewNote } from '../../../../../shared/review-dto.ts';
import type { ChangeSpan, DiffRow } from '../diff/diff-rows.ts';
import type { LineDiff } from '../diff/line-diff.ts';

/** The anchor of a note, as the panel and the API see it (a subset of ReviewNote). */
export type NoteAnchor = Pick<ReviewNote, 'sandboxId' | 'resourceName' | 'path' | 'side' | 'fromLine' | 'toLine'>;

/** Lines of one side of one file, as a range (`from` <= `to`). */
export interface LineRange {
  side: NoteSide;
  from: number;
  to: number;
}

const SIDE_NAMES: Record<NoteSide, string> = { old: 'original', new: 'sandbox' };

/** "original" for the old side, "sandbox" for the new one. */
export function sideName(side: NoteSide): string {
  return SIDE_NAMES[side];
}

/** "line 3" or "lines 10-14". */
export function linesLabel(from: number, to: number): string {
  return from === to ? `line ${from}` : `lines ${Math.min(from, to)}-${Math.max(from, to)}`;
}

/** "Line 3" or "Lines 10-14", as a title. */
export function linesTitle(from: number, to: number): string {
  const text = linesLabel(from, to);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Where a note is, in words: "src/a.ts, lines 10-14 (sandbox)", "src/a.ts (whole file)", "Whole plan". */
export function anchorLabel(note: NoteAnchor): string {
  if (note.sandboxId === null) return 'Whole plan';
  if (note.path === null) return `${note.resourceName ?? 'Sandbox'} (whole sandbox)`;
  if (note.side === null || note.fromLine === null) return `${note.path} (whole file)`;
  return `${note.path}, ${linesLabel(note.fromLine, note.toLine ?? note.fromLine)} (${sideName(note.side)})`;
}

/** The notes of one file (or of the plan, or of a whole sandbox), as the panel lists them. */
export interface NoteGroup {
  key: string;
  /** The file's path, the resource's name, or "Whole plan". */
  title: string;
  /** The resource of the sandbox, when the plan has notes in more than one. */
  resourceName: string | null;
  sandboxId: string | null;
  path: string | null;
  notes: ReviewNote[];
  open: number;
}

/** The number of open notes. */
export function openCount(notes: readonly ReviewNote[]): number {
  return notes.reduce((n, note) => n + (note.status === 'open' ? 1 : 0), 0);
}

/**
 * Notes grouped by file: the whole plan first, then each sandbox's own notes and files in path
 * order; inside a group, open notes first, then by line, then oldest first.
 */
export function groupNotes(notes: readonly ReviewNote[]): NoteGroup[] {
  const groups = new Map<string, NoteGroup>();
  const sandboxes = new Set(notes.map((n) => n.sandboxId).filter((id) => id !== null));
  for (const note of notes) {
    const key = note.sandboxId === null ? '' : `${note.sandboxId}\u0000${note.path ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        title: note.sandboxId === null ? 'Whole plan' : (note.path ?? note.resourceName ?? 'Sandbox'),
        resourceName: sandboxes.size > 1 ? note.resourceName : null,
        sandboxId: note.sandboxId,
        path: note.path,
        notes: [],
        open: 0,
      };
      groups.set(key, group);
    }
    group.notes.push(note);
    if (note.status === 'open') group.open += 1;
  }
  const ordered = [...groups.values()].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.resourceName ?? '').localeCompare(b.resourceName ?? '') ||
      (a.sandboxId ?? '').localeCompare(b.sandboxId ?? '') ||
      (a.path ?? '').localeCompare(b.path ?? ''),
  );
  for (const group of ordered) group.notes.sort(byPlace);
  return ordered;
}

function rank(group: NoteGroup): number {
  if (group.sandboxId === null) return 0;
  return group.path === null ? 1 : 2;
}

function byPlace(a: ReviewNote, b: ReviewNote): number {
  return (
    (a.status === 'open' ? 0 : 1) - (b.status === 'open' ? 0 : 1) ||
    (a.fromLine ?? 0) - (b.fromLine ?? 0) ||
    a.createdAt.localeCompare(b.createdAt)
  );
}

/** The line numbers a drawn row shows on each side (null where it shows none). */
export interface RowLines {
  old: number | null;
  new: number | null;
}

/** The old and new line numbers of a drawn row; a hunk header or gap shows none. */
export function rowLines(row: DiffRow | undefined, diff: LineDiff): RowLines {
  if (!row) return { old: null, new: null };
  if (row.type === 'line') {
    const line = diff.lines[row.line];
    if (!line) return { old: null, new: null };
    return { old: line.kind === 'add' ? null : line.oldNo, new: line.kind === 'del' ? null : line.newNo };
  }
  if (row.type === 'pair') {
    return { old: diff.lines[row.left]?.oldNo ?? null, new: diff.lines[row.right]?.newNo ?? null };
  }
  return { old: null, new: null };
}

/** For each side, the row that shows each line number. */
export interface RowIndex {
  old: Map<number, number>;
  new: Map<number, number>;
}

/** Indexes the rows by the line numbers they show (the first row wins). */
export function indexRows(rows: readonly DiffRow[], diff: LineDiff): RowIndex {
  const index: RowIndex = { old: new Map(), new: new Map() };
  rows.forEach((row, i) => {
    const lines = rowLines(row, diff);
    if (lines.old !== null && !index.old.has(lines.old)) index.old.set(lines.old, i);
    if (lines.new !== null && !index.new.has(lines.new)) index.new.set(lines.new, i);
  });
  return index;
}

/** The row a range's block goes under: the row of its last line, or null when that line is hidden. */
export function rowOfRange(index: RowIndex, range: LineRange): number | null {
  return index[range.side].get(Math.max(range.from, range.to)) ?? null;
}

/** The row nearest to a line (for a jump to a line inside a collapsed run): the first one after it, else the last. */
export function nearestRow(index: RowIndex, side: NoteSide, line: number): number | null {
  let best: [number, number] | null = null;
  for (const [no, row] of index[side]) {
    const distance = no >= line ? no - line : (line - no) * 2;
    if (!best || distance < best[0]) best = [distance, row];
  }
  return best ? best[1] : null;
}

/** The index in `diff.lines` of line `line` of a side (a context line counts on both), or -1. */
export function diffLineOf(diff: LineDiff, side: NoteSide, line: number): number {
  return diff.lines.findIndex((l) => (side === 'old' ? l.kind !== 'add' && l.oldNo === line : l.kind !== 'del' && l.newNo === line));
}

/** Line notes by the row they are drawn under; notes whose lines are hidden are left out. */
export function notesByRow(index: RowIndex, notes: readonly ReviewNote[]): Map<number, ReviewNote[]> {
  const byRow = new Map<number, ReviewNote[]>();
  for (const note of notes) {
    if (note.side === null || note.fromLine === null) continue;
    const row = rowOfRange(index, { side: note.side, from: note.fromLine, to: note.toLine ?? note.fromLine });
    if (row === null) continue;
    const list = byRow.get(row);
    if (list) list.push(note);
    else byRow.set(row, [note]);
  }
  return byRow;
}

/**
 * The lines the `c` key comments on: those of the focused change (its sandbox side when it added
 * lines, else its original side), else the first row in view that shows a line.
 */
export function rangeForKey(
  rows: readonly DiffRow[],
  diff: LineDiff,
  focused: ChangeSpan | null,
  firstVisible: number,
): LineRange | null {
  if (focused) {
    const lines = rows.slice(focused.first, focused.last + 1).map((row) => rowLines(row, diff));
    for (const side of ['new', 'old'] as const) {
      const numbers = lines.map((l) => l[side]).filter((n): n is number => n !== null);
      if (numbers.length > 0) return { side, from: Math.min(...numbers), to: Math.max(...numbers) };
    }
  }
  for (let i = Math.max(0, firstVisible); i < rows.length; i++) {
    const lines = rowLines(rows[i], diff);
    if (lines.new !== null) return { side: 'new', from: lines.new, to: lines.new };
    if (lines.old !== null) return { side: 'old', from: lines.old, to: lines.old };
  }
  return null;
}
