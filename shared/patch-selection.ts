/**
 * Partial commit of one text file: the hunks and changed lines of original vs sandbox text, cut
 * and numbered as `plans diff` prints them, and the original plus exactly a chosen part of them.
 *
 * Line numbers: a deleted line is known by its number in the original (old side), an added line
 * by its number in the sandbox file (new side), as the gutter of the unified diff shows them. A
 * bare number therefore matches both a deletion and an addition with that number (the usual
 * "replace lines 10-14"); a range marked `old` or `new` matches one side only.
 */
import { eachHunkLine, hunkNumbers, lineChanges, lineHunks, type LineChange } from './diff/hunks.ts';
import { internLines, matchLines, splitLines } from './diff/line-match.ts';
import { ValidationError } from './errors.ts';

/** Lines of context around each change: what `plans diff` uses, so hunk ids agree with it. */
export const PATCH_CONTEXT = 3;

/** One line of a hunk, with its ending kept apart so CRLF and a missing last newline survive. */
export interface PatchLine {
  kind: 'context' | 'del' | 'add';
  /** 1-based numbers in the original and in the sandbox file; null on the side it is absent from. */
  oldNo: number | null;
  newNo: number | null;
  /** The text without its line ending. */
  text: string;
  /** '\n', '\r\n', or '' for a last line with no line break. */
  eol: '' | '\n' | '\r\n';
}

/** One hunk: a 1-based id in file order and its header numbers as a unified diff prints them. */
export interface PatchHunk {
  id: number;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: PatchLine[];
}

/** The hunks of one file's change. */
export interface FilePatch {
  hunks: PatchHunk[];
}

/** Changed lines by number: `old` deletions, `new` additions, `both` either (a bare number). */
export interface LineRange {
  side: 'old' | 'new' | 'both';
  from: number;
  to: number;
}

/** What to take of a file's changes: whole hunks by id, and changed lines by number. */
export interface PatchSelection {
  hunks?: readonly number[];
  lines?: readonly LineRange[];
  /** textsFingerprint of the two texts the choice was made on: other texts are refused, never given these numbers. */
  texts?: string;
}

/**
 * A fingerprint of a diff's two texts (not a secure hash: it tells a file changed since a choice
 * was made on it, where the change list's counts and sizes alike cannot).
 */
export function textsFingerprint(original: string, modified: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  const text = `${original}\u0000${modified}`;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return `${original.length}.${modified.length}.${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}`;
}

/** A changed line's key in a resolved selection: `-12` is old line 12 deleted, `+14` new line 14 added. */
export type ChangeKey = `-${number}` | `+${number}`;

/** The key of a changed line (null for context). */
export function changeKey(line: PatchLine): ChangeKey | null {
  if (line.kind === 'del') return `-${line.oldNo as number}`;
  if (line.kind === 'add') return `+${line.newNo as number}`;
  return null;
}

/**
 * The hunks of `original` -> `modified`, from the shared line match (as `plans diff` and the viewer
 * cut them); refuses binary text (NUL bytes). `changes`, when given, are that match's changes
 * already made for the same two texts (the viewer's exact line diff), so they are not made twice.
 */
export function filePatch(original: string, modified: string, changes?: readonly LineChange[]): FilePatch {
  refuseBinary(original, modified);
  const oldLines = splitLines(original);
  const newLines = splitLines(modified);
  const cut = lineHunks(changes ?? matchedChanges(oldLines, newLines), oldLines.length, PATCH_CONTEXT);
  const hunks = cut.map((hunk, index): PatchHunk => {
    const lines: PatchLine[] = [];
    eachHunkLine(hunk, (sign, i, j) => {
      if (sign === ' ') lines.push({ kind: 'context', oldNo: i + 1, newNo: j + 1, ...ending(oldLines[i] as string) });
      else if (sign === '-') lines.push({ kind: 'del', oldNo: i + 1, newNo: null, ...ending(oldLines[i] as string) });
      else lines.push({ kind: 'add', oldNo: null, newNo: j + 1, ...ending(newLines[j] as string) });
    });
    return { id: index + 1, ...hunkNumbers(hunk), lines };
  });
  return { hunks };
}

function matchedChanges(oldLines: readonly string[], newLines: readonly string[]): LineChange[] {
  const [a, b] = internLines(oldLines, newLines);
  return lineChanges(matchLines(a, b), a.length, b.length);
}

/** The changed lines a selection names; refuses hunk ids and line ranges that name no change. */
export function resolveSelection(patch: FilePatch, selection: PatchSelection): Set<ChangeKey> {
  const chosen = new Set<ChangeKey>();
  const count = patch.hunks.length;
  for (const id of selection.hunks ?? []) {
    const hunk = patch.hunks[id - 1];
    if (!Number.isInteger(id) || hunk === undefined) {
      throw new ValidationError(
        count === 0
          ? `There is no hunk ${id}: this file has no text changes.`
          : `There is no hunk ${id}: this file's diff has ${count} hunk${count === 1 ? '' : 's'}, numbered 1 to ${count}.`,
        { hunk: id, hunks: count },
      );
    }
    for (const line of hunk.lines) {
      const key = changeKey(line);
      if (key) chosen.add(key);
    }
  }
  for (const range of selection.lines ?? []) {
    let matched = false;
    for (const hunk of patch.hunks) {
      for (const line of hunk.lines) {
        const key = changeKey(line);
        if (key && inRange(line, range)) {
          chosen.add(key);
          matched = true;
        }
      }
    }
    if (!matched) {
      const which = range.side === 'old' ? 'deleted line' : range.side === 'new' ? 'added line' : 'changed line';
      const article = range.side === 'new' ? 'an' : 'a';
      const span = range.from === range.to ? `Line ${range.from} is not ${article} ${which}` : `Lines ${range.from}-${range.to} hold no ${which}`;
      throw new ValidationError(`${span} of this file's diff: choose lines marked as added or deleted, by the numbers the diff shows.`, {
        range,
      });
    }
  }
  return chosen;
}

/** Whether a hunk's changes are all, none or some of them chosen (its checkbox). */
export function hunkState(hunk: PatchHunk, chosen: ReadonlySet<ChangeKey>): 'all' | 'none' | 'some' {
  let taken = 0;
  let total = 0;
  for (const line of hunk.lines) {
    const key = changeKey(line);
    if (key === null) continue;
    total++;
    if (chosen.has(key)) taken++;
  }
  return taken === 0 ? 'none' : taken === total ? 'all' : 'some';
}

/**
 * The original plus exactly the chosen changes: chosen deletions go, chosen additions come in,
 * unchosen deletions stay and unchosen additions are left out. Every byte not chosen is the
 * original's, line endings included.
 */
export function applySelection(original: string, modified: string, selection: PatchSelection): string {
  const patch = filePatch(original, modified);
  return spliceChosen(splitLines(original), patch, resolveSelection(patch, selection));
}

/** The changes still pending after committing `selection`: the new original against the sandbox. */
export function remaining(original: string, modified: string, selection: PatchSelection): FilePatch {
  return filePatch(applySelection(original, modified, selection), modified);
}

/** Splices the chosen changes of `patch` into the original's lines. */
function spliceChosen(oldLines: string[], patch: FilePatch, chosen: ReadonlySet<ChangeKey>): string {
  const out: string[] = [];
  let next = 0; // index of the next original line not yet copied
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.kind === 'add') {
        if (chosen.has(changeKey(line) as ChangeKey)) out.push(line.text + line.eol);
        continue;
      }
      const at = (line.oldNo as number) - 1;
      while (next < at) out.push(oldLines[next++] as string);
      next = at + 1;
      if (line.kind === 'context' || !chosen.has(changeKey(line) as ChangeKey)) out.push(line.text + line.eol);
    }
  }
  while (next < oldLines.length) out.push(oldLines[next++] as string);
  for (let i = 0; i < out.length - 1; i++) {
    if (!(out[i] as string).endsWith('\n')) {
      // Taking lines after a last line that has no line break would glue two lines into one.
      throw new ValidationError(
        "This selection would join two lines into one: a last line with no line break at its end would no longer be last. Take the change to the file's last line too, or the whole hunk.",
      );
    }
  }
  return out.join('');
}

/** Lines with their endings, split as git splits them (on '\n'; '\r\n' stays whole). */
export { splitLines };

function ending(line: string): { text: string; eol: PatchLine['eol'] } {
  if (line.endsWith('\r\n')) return { text: line.slice(0, -2), eol: '\r\n' };
  if (line.endsWith('\n')) return { text: line.slice(0, -1), eol: '\n' };
  return { text: line, eol: '' };
}

function inRange(line: PatchLine, range: LineRange): boolean {
  const no = line.kind === 'del' ? line.oldNo : line.newNo;
  if (no === null || no < range.from || no > range.to) return false;
  return range.side === 'both' || (range.side === 'old') === (line.kind === 'del');
}

function refuseBinary(original: string, modified: string): void {
  if (original.includes('\0') || modified.includes('\0')) {
    throw new ValidationError(
      'This file is binary (it holds NUL bytes): hunks and lines can be chosen only in text files. Commit the whole file instead.',
      { binary: true },
    );
  }
}
