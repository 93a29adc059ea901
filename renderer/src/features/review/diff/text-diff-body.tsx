/**
 * The virtualized table of a text diff: only the rows in view (plus a margin) exist in the DOM,
 * at fixed heights, so a 10,000-line file scrolls as smoothly as a 10-line one. Both halves of a
 * side-by-side pair live in one row, so the sides can never drift apart.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { DiffRowView, type RowContext } from './diff-row.tsx';
import type { ChangeSpan, DiffRow } from './diff-rows.ts';
import type { DiffMode } from './file-diff.ts';

/** Height of a line row, in CSS pixels (matches --diff-row-h). */
export const LINE_ROW_HEIGHT = 20;

/** Height of a hunk header or gap row (matches --diff-hunk-h). */
export const HUNK_ROW_HEIGHT = 30;

/** A request to bring a row into view; `seq` makes a repeated request for the same row count. */
export interface ScrollRequest {
  row: number;
  seq: number;
}

interface Props {
  rows: DiffRow[];
  mode: DiffMode;
  ctx: RowContext;
  /** Columns of the widest line (tabs expanded): sizes the horizontal scroll. */
  columns: number;
  focused: ChangeSpan | null;
  scrollTo: ScrollRequest | null;
  label: string;
}

/** Lines of context kept above a change brought into view by keyboard navigation. */
const SCROLL_LEAD_ROWS = 3;

/** The scrolling, virtualized body of a text diff. */
export function TextDiffBody({ rows, mode, ctx, columns, focused, scrollTo, label }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => (rows[index]?.type === 'hunk' || rows[index]?.type === 'gap' ? HUNK_ROW_HEIGHT : LINE_ROW_HEIGHT),
    overscan: 24,
  });

  useEffect(() => {
    if (!scrollTo) return;
    virtualizer.scrollToIndex(Math.max(0, scrollTo.row - SCROLL_LEAD_ROWS), { align: 'start' });
  }, [scrollTo, virtualizer]);

  useEffect(() => {
    // Row heights depend on the row kinds, which change with the mode and with expansion.
    virtualizer.measure();
  }, [rows, virtualizer]);

  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={scrollRef}
      className="diff-scroll"
      tabIndex={0}
      role="table"
      aria-label={label}
      aria-rowcount={rows.length}
      data-mode={mode}
    >
      <div
        role="rowgroup"
        className="diff-canvas"
        style={{ height: virtualizer.getTotalSize(), ['--diff-columns' as string]: String(Math.max(columns, 1)) }}
      >
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          const inFocus = focused !== null && item.index >= focused.first && item.index <= focused.last;
          return <DiffRowView key={item.key} row={row} index={item.index} ctx={ctx} focused={inFocus} top={item.start} height={item.size} />;
        })}
      </div>
    </div>
  );
}
