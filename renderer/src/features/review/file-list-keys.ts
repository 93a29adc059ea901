/**
 * What a key does inside the review's file list, where the list is one Tab stop and the arrows
 * move the active row (as in a tree view): Up/Down and Home/End move, Right opens a folder or
 * steps into it, Left closes it or goes to the folder above, Space toggles the row's commit
 * checkbox. Section headings are never active. Pure, so it is tested without a screen.
 */
import type { FileRow } from './file-rows.ts';

/** The outcome of a key: move to a row, fold or unfold a folder row, toggle a row's checkbox. */
export type ListKeyAction =
  | { kind: 'move'; index: number }
  | { kind: 'fold'; index: number; open: boolean }
  | { kind: 'check'; index: number };

/** The action of `key` with row `active` active (-1: none yet), or null when the list does not take it. */
export function listKeyAction(rows: readonly FileRow[], active: number, key: string): ListKeyAction | null {
  const current = rows[active];
  switch (key) {
    case 'ArrowDown':
      return moveTo(rows, active < 0 ? 0 : active + 1, 1);
    case 'ArrowUp':
      return moveTo(rows, active < 0 ? rows.length - 1 : active - 1, -1);
    case 'Home':
      return moveTo(rows, 0, 1);
    case 'End':
      return moveTo(rows, rows.length - 1, -1);
    case 'ArrowRight':
      if (current?.kind !== 'dir') return null;
      return current.collapsed ? { kind: 'fold', index: active, open: true } : moveTo(rows, active + 1, 1);
    case 'ArrowLeft': {
      if (current?.kind === 'dir' && !current.collapsed) return { kind: 'fold', index: active, open: false };
      const parent = parentIndex(rows, active);
      return parent < 0 ? null : { kind: 'move', index: parent };
    }
    case ' ':
      return current && current.kind !== 'section' ? { kind: 'check', index: active } : null;
    default:
      return null;
  }
}

/** The first row at or after `from` (going `step`) that can be active; stays put at the ends. */
function moveTo(rows: readonly FileRow[], from: number, step: 1 | -1): ListKeyAction | null {
  for (let i = from; i >= 0 && i < rows.length; i += step) {
    if (rows[i]?.kind !== 'section') return { kind: 'move', index: i };
  }
  return null;
}

/** The folder row that holds row `index`, or -1. */
function parentIndex(rows: readonly FileRow[], index: number): number {
  const row = rows[index];
  if (!row || row.depth === 0) return -1;
  for (let i = index - 1; i >= 0; i--) {
    const above = rows[i] as FileRow;
    if (above.kind === 'section') return -1;
    if (above.kind === 'dir' && above.depth < row.depth) return i;
  }
  return -1;
}
