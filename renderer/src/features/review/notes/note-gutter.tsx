/**
 * The "+" in a diff row's gutter that starts a note on that line: shown on hover; drag over more
 * rows, or shift-click another row of the same side, to cover a range. Keyboard users press `c`
 * in the diff instead (see use-inline-notes.tsx), so these buttons stay out of the tab order.
 */
import type { PointerEvent, ReactElement } from 'react';
import type { NoteSide } from '../../../../../shared/review-dto.ts';
import { sideName } from './anchor.ts';
import { useNotesScope, useScopedNotes } from './notes-context.tsx';
import './note-threads.css';
import './note-card.css';

/** Props: which side and line the row shows. */
export interface NoteGutterButtonProps {
  side: NoteSide;
  line: number | null;
}

/** The gutter button (nothing outside a review, or for a row without a line on this side). */
export function NoteGutterButton({ side, line }: NoteGutterButtonProps): ReactElement | null {
  const scope = useNotesScope();
  const inRange = useScopedNotes((s) => {
    const range = s.draft?.range;
    return (
      line !== null &&
      range !== undefined &&
      range !== null &&
      s.draft?.path === scope?.path &&
      s.draft?.sandboxId === scope?.sandboxId &&
      range.side === side &&
      line >= range.from &&
      line <= range.to
    );
  });
  const startDraft = useScopedNotes((s) => s.startDraft);
  const dragTo = useScopedNotes((s) => s.dragTo);
  const endDrag = useScopedNotes((s) => s.endDrag);
  if (!scope || scope.path === null || line === null) return null;
  const target = { sandboxId: scope.sandboxId, path: scope.path, range: { side, from: line, to: line } };
  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0) return;
    // No text selection while dragging over the gutter.
    event.preventDefault();
    startDraft(target, { extend: event.shiftKey, drag: true });
    window.addEventListener('pointerup', () => endDrag(), { once: true });
  };
  return (
    <button
      type="button"
      className="note-add"
      tabIndex={-1}
      data-in-range={inRange || undefined}
      aria-label={`Add a note on line ${line} (${sideName(side)})`}
      title="Add a note (drag or shift-click for several lines)"
      onPointerDown={onPointerDown}
      onPointerEnter={() => dragTo(side, line)}
      onClick={(event) => {
        // A click from the keyboard (no pointer down before it).
        if (event.detail === 0) startDraft(target, { extend: event.shiftKey });
      }}
    >
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
        <path d="M8 3v10M3 8h10" stroke="currentColor" strokeWidth="2" strokeLinecap="round" fill="none" />
      </svg>
    </button>
  );
}
