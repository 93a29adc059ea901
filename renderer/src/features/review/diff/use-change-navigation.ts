/**
 * Keyboard navigation between change blocks (n/j next, p/k previous): which change is focused,
 * the request to scroll it into view, and a sentence for screen readers. Resets when the diff changes.
 */
import { useCallback, useMemo, useState } from 'react';
import type { ChangeSpan } from './diff-rows.ts';
import type { ScrollRequest } from './text-diff-body.tsx';

/** The navigation state a text diff renders from. */
export interface ChangeNavigation {
  index: number;
  focused: ChangeSpan | null;
  scrollTo: ScrollRequest | null;
  announcement: string;
  next: () => void;
  previous: () => void;
}

/** Navigation over `changes`; `resetKey` (the diff) starts it over when it changes. */
export function useChangeNavigation(changes: readonly ChangeSpan[], resetKey: unknown): ChangeNavigation {
  const [state, setState] = useState<{ key: unknown; index: number; seq: number }>({
    key: resetKey,
    index: -1,
    seq: 0,
  });
  const index = state.key === resetKey && state.index < changes.length ? state.index : -1;
  const move = useCallback(
    (delta: 1 | -1) => {
      if (changes.length === 0) return;
      setState((prev) => {
        const current = prev.key === resetKey && prev.index < changes.length ? prev.index : -1;
        const next =
          current < 0
            ? delta > 0
              ? 0
              : changes.length - 1
            : Math.min(changes.length - 1, Math.max(0, current + delta));
        return { key: resetKey, index: next, seq: prev.seq + 1 };
      });
    },
    [changes.length, resetKey],
  );
  const focused = index >= 0 ? (changes[index] ?? null) : null;
  const first = focused?.first ?? -1;
  const scrollTo = useMemo(() => (first >= 0 ? { row: first, seq: state.seq } : null), [first, state.seq]);
  const announcement = index >= 0 ? `Change ${index + 1} of ${changes.length}` : '';
  return { index, focused, scrollTo, announcement, next: () => move(1), previous: () => move(-1) };
}

/**
 * Whether a key event belongs to the change navigation (and not to a text field or a shortcut).
 * n/p always; j/k too unless `fileKeys` says the owner uses them to move between files.
 */
export function navigationKey(
  event: {
    key: string;
    altKey: boolean;
    ctrlKey: boolean;
    metaKey: boolean;
    target: EventTarget | null;
  },
  fileKeys = false,
): 'next' | 'previous' | null {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const target = event.target as { closest?: (selector: string) => unknown } | null;
  if (target?.closest?.('input, textarea, select, [contenteditable="true"]')) return null;
  if (event.key === 'n' || (!fileKeys && event.key === 'j')) return 'next';
  if (event.key === 'p' || (!fileKeys && event.key === 'k')) return 'previous';
  return null;
}
