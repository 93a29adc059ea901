/**
 * Find in a diff: every occurrence of a query in the lines of both sides (case-insensitive, plain
 * text), in the order a reader meets them in the chosen layout, and how to reveal a match that
 * sits in a collapsed run of unchanged lines.
 */
import type { DiffRow } from './diff-rows.ts';
import type { DiffMode } from './file-diff.ts';
import type { LineDiff } from './line-diff.ts';
import type { Range } from './word-diff.ts';

/** One occurrence: a line of the diff (index into LineDiff.lines) and a character range in it. */
export interface FindMatch {
  line: number;
  start: number;
  end: number;
}

/** The matches of a query; `capped` when there were more than the limit. */
export interface FindResult {
  matches: FindMatch[];
  capped: boolean;
}

/** Matches counted at most: beyond this the bar says "10,000+". */
export const MAX_MATCHES = 10_000;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Every match of `query` in `diff`, ordered as drawn in `mode` (side by side, a deleted line comes
 * before the added line beside it). Only the first `maxChars` characters of a line are searched,
 * as only those are drawn.
 */
export function findMatches(
  diff: LineDiff,
  query: string,
  mode: DiffMode,
  options: { limit?: number; maxChars?: number } = {},
): FindResult {
  const limit = options.limit ?? MAX_MATCHES;
  if (query === '') return { matches: [], capped: false };
  const pattern = new RegExp(escapeRegExp(query), 'giu');
  const order = displayOrder(diff, mode);
  const lines = diff.lines.map((_, index) => index).sort((a, b) => (order[a] ?? 0) - (order[b] ?? 0));
  const matches: FindMatch[] = [];
  for (const line of lines) {
    const text = (diff.lines[line]?.text ?? '').slice(0, options.maxChars ?? Infinity);
    pattern.lastIndex = 0;
    for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
      if (matches.length >= limit) return { matches, capped: true };
      matches.push({ line, start: found.index, end: found.index + found[0].length });
    }
  }
  return { matches, capped: false };
}

/**
 * A sort key per line in drawing order. Unified, that is the line order. Side by side, the lines
 * of a change block follow its rows, the old half of a row before the new half.
 */
export function displayOrder(diff: LineDiff, mode: DiffMode): Float64Array {
  const order = new Float64Array(diff.lines.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  if (mode === 'unified') return order;
  for (const block of diff.blocks) {
    block.rows.forEach(([d, a], row) => {
      if (d >= 0) order[block.start + d] = block.start + row;
      if (a >= 0) order[block.start + block.dels + a] = block.start + row + 0.5;
    });
  }
  return order;
}

/** The ranges to mark on each line, for the rows to look up while drawing. */
export function hitsByLine(matches: readonly FindMatch[]): Map<number, Range[]> {
  const byLine = new Map<number, Range[]>();
  for (const match of matches) {
    const list = byLine.get(match.line);
    const range = { start: match.start, end: match.end };
    if (list) list.push(range);
    else byLine.set(match.line, [range]);
  }
  for (const list of byLine.values()) list.sort((a, b) => a.start - b.start);
  return byLine;
}

/**
 * A visibility with line `line` shown and `context` lines around it, so a match in a collapsed
 * run can be brought into view; the same array when the line is already shown.
 */
export function revealLine(visible: Uint8Array, line: number, context = 3): Uint8Array {
  if (visible[line] === 1) return visible;
  const next = visible.slice();
  next.fill(1, Math.max(0, line - context), Math.min(visible.length, line + context + 1));
  return next;
}

/** "3 of 12", "No results", or "1 of 10,000+" when the count was capped. */
export function findCountLabel(index: number, result: FindResult, query: string): string {
  if (query === '') return '';
  const total = result.matches.length;
  if (total === 0) return 'No results';
  const count = `${total.toLocaleString('en-US')}${result.capped ? '+' : ''}`;
  return index >= 0 ? `${(index + 1).toLocaleString('en-US')} of ${count}` : `${count} found`;
}

/** The row each drawn line sits in (both halves of a side-by-side pair map to the pair's row). */
export function rowsByLine(rows: readonly DiffRow[]): Map<number, number> {
  const byLine = new Map<number, number>();
  rows.forEach((row, index) => {
    if (row.type === 'line') byLine.set(row.line, index);
    else if (row.type === 'pair') {
      if (row.left >= 0) byLine.set(row.left, index);
      if (row.right >= 0) byLine.set(row.right, index);
    }
  });
  return byLine;
}
