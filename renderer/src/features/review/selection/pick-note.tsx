/**
 * The line above a review diff about its partial commit: why hunks and lines cannot be chosen
 * here, or how much of the file the next commit takes, with a way back to the whole file. Also
 * the Space key on a change focused with n/p (toggles that change's hunk).
 */
import type { ReactElement } from 'react';
import type { ChangeSpan, DiffRow } from '../diff/diff-rows.ts';
import { selectionLabel } from './selection-model.ts';
import './partial-commit.css';
import type { LinePick } from './use-line-pick.ts';

/** The note, or nothing when the whole file (or none of it) is taken. */
export function PickNote({ pick, path }: { pick: LinePick | null; path: string }): ReactElement | null {
  if (!pick) return null;
  if (pick.blocked) {
    return (
      <div className="diff-pick-note" role="note">
        {pick.blocked}
      </div>
    );
  }
  if (!pick.summary) return null;
  return (
    <div className="diff-pick-note is-partial" role="status">
      <span>
        The next commit takes <strong>{selectionLabel(pick.summary, path)}</strong>; the rest stays in the sandbox.
      </span>
      <button type="button" className="diff-btn diff-pick-all" onClick={pick.takeAll}>
        Take the whole file
      </button>
    </div>
  );
}

/**
 * Space on the diff (not on a control) with a change focused: toggles the hunk that change lies
 * in. Returns whether it handled the key.
 */
export function pickKey(
  event: { key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean; target: EventTarget | null; preventDefault(): void },
  pick: LinePick | null,
  rows: readonly DiffRow[],
  focused: ChangeSpan | null,
): boolean {
  if (event.key !== ' ' || event.altKey || event.ctrlKey || event.metaKey || !pick || pick.blocked || !focused) return false;
  const target = event.target as { closest?: (selector: string) => unknown } | null;
  if (target?.closest?.('input, textarea, select, button, [role="checkbox"], [contenteditable="true"]')) return false;
  for (let row = focused.first; row <= focused.last && row < rows.length; row++) {
    const place = pick.rows[row];
    if (place) {
      event.preventDefault();
      pick.toggleHunk(place.id);
      return true;
    }
  }
  return false;
}
