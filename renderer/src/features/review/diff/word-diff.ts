/**
 * Word-level highlights inside a paired deleted/added line: which character ranges of each side
 * changed, so the renderer can mark them stronger than the line background.
 */
import { diffWordsWithSpace } from 'diff';

/** A half-open character range [start, end) of a line. */
export interface Range {
  start: number;
  end: number;
}

/** Changed ranges of the old (deleted) and new (added) line. */
export interface WordChanges {
  old: Range[];
  new: Range[];
}

/** Lines longer than this are not word-diffed (the cost grows with length; the line is marked whole). */
export const WORD_DIFF_MAX_LENGTH = 2000;

/**
 * Above this share of changed characters the two lines are unrelated and word marks would be
 * noise, so none are returned.
 */
export const WORD_DIFF_MAX_CHANGED = 0.6;

/**
 * The changed ranges between `oldText` and `newText` (diffWordsWithSpace, so whitespace changes
 * show), or null when the lines are equal, too long, or mostly different.
 */
export function wordChanges(oldText: string, newText: string): WordChanges | null {
  if (oldText === newText) return null;
  if (oldText.length > WORD_DIFF_MAX_LENGTH || newText.length > WORD_DIFF_MAX_LENGTH) return null;
  const result: WordChanges = { old: [], new: [] };
  let oldPos = 0;
  let newPos = 0;
  let unchanged = 0;
  for (const part of diffWordsWithSpace(oldText, newText)) {
    const length = part.value.length;
    if (part.removed) {
      addRange(result.old, oldText, oldPos, oldPos + length);
      oldPos += length;
    } else if (part.added) {
      addRange(result.new, newText, newPos, newPos + length);
      newPos += length;
    } else {
      oldPos += length;
      newPos += length;
      unchanged += visibleLength(part.value);
    }
  }
  const meaningful = Math.max(visibleLength(oldText), visibleLength(newText));
  if (meaningful > 0 && unchanged / meaningful < 1 - WORD_DIFF_MAX_CHANGED) return null;
  return result;
}

/** Appends a range, merging it with the previous one when only whitespace separates them (one calm mark). */
function addRange(ranges: Range[], text: string, start: number, end: number): void {
  if (end <= start) return;
  const last = ranges[ranges.length - 1];
  if (last && visibleLength(text.slice(last.end, start)) === 0) last.end = end;
  else ranges.push({ start, end });
}

/** Characters other than whitespace: what makes two lines look alike. */
function visibleLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9) count++;
  }
  return count;
}
