/**
 * The diff header's "note on this file" button: opens the notes panel with a composer for a note
 * on the whole file, and shows how many open notes the file has.
 */
import type { ReactElement } from 'react';
import { useNotesScope, useScopedNotes } from './notes-context.tsx';
import './notes-panel.css';

/** The button (nothing outside a review). */
export function FileNoteButton(): ReactElement | null {
  const scope = useNotesScope();
  const count = useScopedNotes(
    (s) =>
      s.notes.filter((n) => n.status === 'open' && n.sandboxId === scope?.sandboxId && n.path === scope?.path)
        .length,
  );
  const startDraft = useScopedNotes((s) => s.startDraft);
  const setPanelOpen = useScopedNotes((s) => s.setPanelOpen);
  if (!scope || scope.path === null) return null;
  const path = scope.path;
  return (
    <button
      type="button"
      className="diff-icon-btn note-file-btn"
      aria-label="Add a note on the whole file"
      title={count > 0 ? `Add a note on the whole file (${count} open on this file)` : 'Add a note on the whole file'}
      onClick={() => {
        startDraft({ sandboxId: scope.sandboxId, path, range: null });
        setPanelOpen(true);
      }}
    >
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path
          d="M2.5 3.5A1.5 1.5 0 0 1 4 2h8a1.5 1.5 0 0 1 1.5 1.5v6A1.5 1.5 0 0 1 12 11H7l-3 3v-3a1.5 1.5 0 0 1-1.5-1.5z"
          stroke="currentColor"
          strokeWidth="1.3"
          strokeLinejoin="round"
          fill="none"
        />
      </svg>
      {count > 0 ? <span className="note-file-count">{count}</span> : null}
    </button>
  );
}
