/**
 * The rows of the three-way view, from the merge dry run's stretches: settled lines around a
 * conflict kept as context (the rest folded), each side's line numbers counted through.
 */
import type { MergeHunk } from '../../../../shared/dto.ts';

/** Lines of settled text kept on each side of a conflict. */
export const CONTEXT_LINES = 3;

type Side = 'base' | 'original' | 'sandbox';
/** A numbered line of one side. */
export interface NumberedLine {
  number: number;
  text: string;
}

/** One row: a settled line (on all sides), a fold of settled lines, or a conflict with each side's lines. */
export type ThreeWayRow =
  | { kind: 'same'; text: string; numbers: Record<Side, number> }
  | { kind: 'fold'; count: number }
  | ({ kind: 'conflict'; index: number } & Record<Side, NumberedLine[]>);

/** The rows for `hunks`; settled lines far from any conflict are folded. */
export function threeWayRows(hunks: MergeHunk[]): ThreeWayRow[] {
  const rows: ThreeWayRow[] = [];
  const next: Record<Side, number> = { base: 1, original: 1, sandbox: 1 };
  let conflicts = 0;
  hunks.forEach((hunk, at) => {
    if (hunk.kind === 'conflict') {
      conflicts += 1;
      const side = (key: Side): NumberedLine[] => hunk[key].map((text) => ({ number: next[key]++, text }));
      rows.push({ kind: 'conflict', index: conflicts, base: side('base'), original: side('original'), sandbox: side('sandbox') });
      return;
    }
    const lines = hunk.lines;
    const head = at > 0 ? CONTEXT_LINES : 0;
    const tail = at < hunks.length - 1 ? CONTEXT_LINES : 0;
    const same = (text: string): ThreeWayRow => {
      const numbers = { ...next };
      next.base += 1;
      next.original += 1;
      next.sandbox += 1;
      return { kind: 'same', text, numbers };
    };
    if (lines.length <= head + tail + 1) {
      rows.push(...lines.map(same));
      return;
    }
    rows.push(...lines.slice(0, head).map(same));
    const folded = lines.length - head - tail;
    rows.push({ kind: 'fold', count: folded });
    next.base += folded;
    next.original += folded;
    next.sandbox += folded;
    rows.push(...lines.slice(lines.length - tail).map(same));
  });
  return rows;
}
