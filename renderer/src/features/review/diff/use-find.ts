/**
 * The find state of one text diff: whether the bar is open, the query, the matches (searched after
 * typing settles, so long files stay responsive) and the current match; `seq` counts moves so the
 * body scrolls once per move.
 */
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { MAX_RENDERED_CHARS } from './diff-row.tsx';
import type { DiffMode } from './file-diff.ts';
import { findCountLabel, findMatches, hitsByLine, type FindMatch, type FindResult } from './find.ts';
import type { LineDiff } from './line-diff.ts';
import type { Range } from './word-diff.ts';

/** What the viewer renders the find bar and highlights from. */
export interface FindState {
  open: boolean;
  query: string;
  count: string;
  hasMatches: boolean;
  current: FindMatch | null;
  hits: Map<number, Range[]> | null;
  seq: number;
  focusSeq: number;
  show: () => void;
  close: () => void;
  setQuery: (query: string) => void;
  next: () => void;
  previous: () => void;
}

const NONE: FindResult = { matches: [], capped: false };

/** Find over `diff` as drawn in `mode`. */
export function useFind(diff: LineDiff, mode: DiffMode): FindState {
  const [open, setOpen] = useState(false);
  const [query, setQueryState] = useState('');
  const [focusSeq, setFocusSeq] = useState(0);
  const [pos, setPos] = useState<{ result: FindResult; index: number; seq: number }>({
    result: NONE,
    index: -1,
    seq: 0,
  });
  const searched = useDeferredValue(open ? query : '');
  const result = useMemo(
    () => (searched ? findMatches(diff, searched, mode, { maxChars: MAX_RENDERED_CHARS }) : NONE),
    [diff, searched, mode],
  );
  const total = result.matches.length;
  // A new result (typing, another layout, new texts) starts at its first match.
  const index = pos.result === result ? pos.index : total > 0 ? 0 : -1;
  const seq = pos.result === result ? pos.seq : pos.seq + 1;
  const move = useCallback(
    (delta: 1 | -1) => {
      if (total === 0) return;
      setPos((prev) => {
        // Until the first move the current match is the first one (index 0 of this result).
        const from = prev.result === result ? prev.index : 0;
        return { result, index: (from + delta + total) % total, seq: prev.seq + 2 };
      });
    },
    [result, total],
  );
  const hits = useMemo(() => (total > 0 ? hitsByLine(result.matches) : null), [result, total]);
  return {
    open,
    query,
    count: findCountLabel(index, result, searched),
    hasMatches: total > 0,
    current: index >= 0 ? (result.matches[index] ?? null) : null,
    hits,
    seq,
    focusSeq,
    show: () => {
      setOpen(true);
      setFocusSeq((n) => n + 1);
    },
    close: () => setOpen(false),
    setQuery: setQueryState,
    next: () => move(1),
    previous: () => move(-1),
  };
}
