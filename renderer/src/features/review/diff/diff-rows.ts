/**
 * From a line diff to the rows the viewer draws: which unchanged lines are collapsed (N lines of
 * context around each change, expandable), hunk headers "@@ -a,b +c,d @@", and the unified or
 * side-by-side row sequence with the row span of every change block for keyboard navigation.
 */
import type { DiffMode } from './file-diff.ts';
import type { DiffLine, LineDiff } from './line-diff.ts';

/** Unchanged lines shown around each change by default, as in `git diff`. */
export const DEFAULT_CONTEXT_LINES = 3;

/** Unchanged runs shorter than this stay visible: a hunk header would take as much room as the lines it hides. */
export const MIN_COLLAPSED_LINES = 4;

/** Lines revealed by one click on an expand control. */
export const EXPAND_STEP = 20;

/** A collapsed run of unchanged lines [start, end) (indices into LineDiff.lines). */
export interface Gap {
  start: number;
  end: number;
  /** Where the gap sits: before the first hunk, between hunks, or after the last. */
  position: 'start' | 'middle' | 'end';
}

/** The numbers of a hunk header, plus git's "function context" (the nearest preceding declaration line). */
export interface HunkHeader {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  context: string;
}

/** One drawn row. `left`/`right` of a split pair are line indices, or -1 for an empty half. */
export type DiffRow =
  | { type: 'hunk'; header: HunkHeader; gap: Gap | null }
  | { type: 'gap'; gap: Gap }
  | { type: 'line'; line: number }
  | { type: 'pair'; left: number; right: number };

/** The rows of a row span [first, last] belonging to one change block. */
export interface ChangeSpan {
  first: number;
  last: number;
}

/** Rows to draw and where each change block landed in them. */
export interface RowModel {
  rows: DiffRow[];
  changes: ChangeSpan[];
}

/** Which directions an expand control offers for a gap. */
export type ExpandDirection = 'up' | 'down' | 'all';

/**
 * Visibility of every line: changed lines always, unchanged ones within `context` lines of a
 * change, and any unchanged run too short to be worth collapsing.
 */
export function initialVisibility(diff: LineDiff, context = DEFAULT_CONTEXT_LINES): Uint8Array {
  const visible = new Uint8Array(diff.lines.length);
  if (!Number.isFinite(context)) return visible.fill(1);
  const reach = Math.max(0, Math.floor(context));
  for (const block of diff.blocks) {
    const from = Math.max(0, block.start - reach);
    const to = Math.min(diff.lines.length, block.start + block.dels + block.adds + reach);
    visible.fill(1, from, to);
  }
  let runStart = -1;
  for (let i = 0; i <= visible.length; i++) {
    const hidden = i < visible.length && visible[i] === 0;
    if (hidden && runStart < 0) runStart = i;
    if (!hidden && runStart >= 0) {
      if (i - runStart < MIN_COLLAPSED_LINES) visible.fill(1, runStart, i);
      runStart = -1;
    }
  }
  return visible;
}

/** The expand directions worth offering for `gap` (one "all" when a step would reveal it anyway). */
export function expandDirections(gap: Gap, step = EXPAND_STEP): ExpandDirection[] {
  if (gap.end - gap.start <= step) return ['all'];
  if (gap.position === 'start') return ['up', 'all'];
  if (gap.position === 'end') return ['down', 'all'];
  return ['down', 'up', 'all'];
}

/**
 * A new visibility with part of `gap` revealed: 'up' shows the `step` lines just above the hunk
 * below the gap, 'down' the `step` lines just below the hunk above it, 'all' the whole gap.
 */
export function expandGap(
  visible: Uint8Array,
  gap: Gap,
  direction: ExpandDirection,
  step = EXPAND_STEP,
): Uint8Array {
  const next = visible.slice();
  if (direction === 'all') next.fill(1, gap.start, gap.end);
  else if (direction === 'up') next.fill(1, Math.max(gap.start, gap.end - step), gap.end);
  else next.fill(1, gap.start, Math.min(gap.end, gap.start + step));
  return next;
}

/** "@@ -a,b +c,d @@ context", omitting a count of 1 as git does. */
export function formatHunkHeader(header: HunkHeader): string {
  const side = (start: number, count: number) => (count === 1 ? `${start}` : `${start},${count}`);
  const base = `@@ -${side(header.oldStart, header.oldLines)} +${side(header.newStart, header.newLines)} @@`;
  return header.context ? `${base} ${header.context}` : base;
}

/** Git's default function-context rule: a line starting with a letter, `_` or `$`. */
const FUNCTION_LINE = /^[A-Za-z_$]/;
const CONTEXT_MAX = 80;

/** Builds the rows for `mode` from the diff and the current visibility. */
export function buildRows(diff: LineDiff, visible: Uint8Array, mode: DiffMode): RowModel {
  const { lines } = diff;
  const rows: DiffRow[] = [];
  const changes: ChangeSpan[] = [];
  const blockAt = new Map<number, number>();
  diff.blocks.forEach((block, index) => blockAt.set(block.start, index));

  let oldSeen = 0;
  let newSeen = 0;
  let funcContext = '';
  let k = 0;
  const advance = (index: number) => {
    const line = lines[index];
    if (!line) return;
    if (line.oldNo !== null) {
      oldSeen++;
      if (FUNCTION_LINE.test(line.text)) funcContext = line.text.trimEnd().slice(0, CONTEXT_MAX);
    }
    if (line.newNo !== null) newSeen++;
  };

  while (k < lines.length) {
    const gapStart = k;
    while (k < lines.length && !visible[k]) advance(k++);
    if (k >= lines.length) {
      if (k > gapStart)
        rows.push({
          type: 'gap',
          gap: { start: gapStart, end: k, position: gapStart === 0 ? 'start' : 'end' },
        });
      break;
    }
    const gap: Gap | null =
      k > gapStart ? { start: gapStart, end: k, position: gapStart === 0 ? 'start' : 'middle' } : null;
    let runEnd = k;
    let oldCount = 0;
    let newCount = 0;
    while (runEnd < lines.length && visible[runEnd]) {
      const line = lines[runEnd] as DiffLine;
      if (line.oldNo !== null) oldCount++;
      if (line.newNo !== null) newCount++;
      runEnd++;
    }
    rows.push({
      type: 'hunk',
      gap,
      header: {
        oldStart: oldCount > 0 ? oldSeen + 1 : oldSeen,
        oldLines: oldCount,
        newStart: newCount > 0 ? newSeen + 1 : newSeen,
        newLines: newCount,
        context: funcContext,
      },
    });
    while (k < runEnd) {
      const blockIndex = blockAt.get(k);
      if (blockIndex === undefined) {
        rows.push(mode === 'split' ? { type: 'pair', left: k, right: k } : { type: 'line', line: k });
        advance(k++);
        continue;
      }
      const block = diff.blocks[blockIndex];
      if (!block) break;
      const first = rows.length;
      if (mode === 'split') {
        for (const [d, a] of block.rows) {
          rows.push({
            type: 'pair',
            left: d < 0 ? -1 : block.start + d,
            right: a < 0 ? -1 : block.start + block.dels + a,
          });
        }
      } else {
        for (let i = 0; i < block.dels + block.adds; i++) rows.push({ type: 'line', line: block.start + i });
      }
      changes.push({ first, last: rows.length - 1 });
      const end = block.start + block.dels + block.adds;
      while (k < end) advance(k++);
    }
  }
  return { rows, changes };
}
