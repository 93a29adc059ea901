/**
 * The virtualized table of a text diff: only the rows in view (plus a margin) exist in the DOM,
 * at fixed heights, so a 10,000-line file scrolls as smoothly as a 10-line one. Both halves of a
 * side-by-side pair live in one row, so the sides can never drift apart. Side by side, long lines
 * scroll horizontally inside their halves (both together, from one bar under the table, the wheel
 * or the arrow keys) while the line numbers stay put; unified, the whole table scrolls.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type CSSProperties, type KeyboardEvent } from 'react';
import { DiffRowView, type RowContext } from './diff-row.tsx';
import type { ChangeSpan, DiffRow } from './diff-rows.ts';
import type { DiffMode } from './file-diff.ts';
import { useInlineNotes } from '../notes/use-inline-notes.tsx';

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
  /** A find match to centre in view (once per `seq`). */
  revealTo?: ScrollRequest | null;
  label: string;
}

/** Lines of context kept above a change brought into view by keyboard navigation. */
const SCROLL_LEAD_ROWS = 3;

/** Pixels one arrow key press scrolls the halves of a side-by-side diff sideways. */
const ARROW_STEP = 40;

/** The scrolling, virtualized body of a text diff. */
export function TextDiffBody({ rows, mode, ctx, columns, focused, scrollTo, revealTo, label }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const barRef = useRef<HTMLDivElement>(null);
  const noteHeight = useRef<(index: number) => number>(() => 0);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    // A row with review notes under it is taller by their height (see use-inline-notes.tsx).
    estimateSize: (index) => rowHeight(rows[index]) + noteHeight.current(index),
    overscan: 24,
  });
  const notes = useInlineNotes(rows, ctx.diff, virtualizer, mode, ctx.reveal);
  noteHeight.current = notes.extra;

  useEffect(() => {
    if (!scrollTo) return;
    virtualizer.scrollToIndex(Math.max(0, scrollTo.row - SCROLL_LEAD_ROWS), { align: 'start' });
  }, [scrollTo, virtualizer]);

  // The row of a match can move (a collapsed run opening above it): scroll once per request only.
  const revealed = useRef(-1);
  useEffect(() => {
    if (!revealTo || revealTo.seq === revealed.current) return;
    revealed.current = revealTo.seq;
    virtualizer.scrollToIndex(revealTo.row, { align: 'center' });
  }, [revealTo, virtualizer]);

  useEffect(() => {
    // Row heights depend on the row kinds, which change with the mode and with expansion.
    virtualizer.measure();
  }, [rows, virtualizer]);

  useEffect(() => {
    // Side by side, horizontal wheel movement goes to the halves (the table itself never scrolls sideways).
    const scroller = scrollRef.current;
    canvasRef.current?.style.setProperty('--diff-x', '0px');
    if (!scroller || mode !== 'split') return undefined;
    const onWheel = (event: WheelEvent) => {
      const dx = event.deltaX || (event.shiftKey ? event.deltaY : 0);
      if (dx && barRef.current) barRef.current.scrollLeft += dx;
    };
    scroller.addEventListener('wheel', onWheel, { passive: true });
    return () => scroller.removeEventListener('wheel', onWheel);
  }, [mode]);

  const onBarScroll = () =>
    canvasRef.current?.style.setProperty('--diff-x', `${barRef.current?.scrollLeft ?? 0}px`);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const scrollTop = scrollRef.current?.scrollTop ?? 0;
    const firstVisible = virtualizer.getVirtualItems().find((i) => i.end > scrollTop)?.index ?? 0;
    if (notes.onKeyDown(event, focused, firstVisible)) return;
    if (mode !== 'split' || event.target !== scrollRef.current || !barRef.current) return;
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    barRef.current.scrollLeft += event.key === 'ArrowLeft' ? -ARROW_STEP : ARROW_STEP;
  };

  const items = virtualizer.getVirtualItems();
  const bodyStyle = { ['--diff-columns' as string]: String(Math.max(columns, 1)) } as CSSProperties;
  return (
    <div className="diff-body" style={bodyStyle}>
      <div
        ref={scrollRef}
        className="diff-scroll"
        tabIndex={0}
        role="table"
        aria-label={label}
        aria-rowcount={rows.length}
        data-mode={mode}
        data-pick={ctx.pick ? '' : undefined}
        onKeyDown={onKeyDown}
      >
        <div
          ref={canvasRef}
          role="rowgroup"
          className="diff-canvas"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const inFocus = focused !== null && item.index >= focused.first && item.index <= focused.last;
            return [
              <DiffRowView
                key={item.key}
                row={row}
                index={item.index}
                ctx={ctx}
                focused={inFocus}
                top={item.start}
                height={rowHeight(row)}
              />,
              notes.block(item.index, item.start + rowHeight(row)),
            ];
          })}
        </div>
      </div>
      {mode === 'split' ? (
        <div ref={barRef} className="diff-hbar" onScroll={onBarScroll} aria-hidden="true">
          <div className="diff-hbar-inner" />
        </div>
      ) : null}
    </div>
  );
}

function rowHeight(row: DiffRow | undefined): number {
  return row?.type === 'hunk' || row?.type === 'gap' ? HUNK_ROW_HEIGHT : LINE_ROW_HEIGHT;
}
