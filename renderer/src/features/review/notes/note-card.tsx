/**
 * One review note, inline under its lines or in the notes panel: its text, "Outdated" with the
 * lines it was written on when they changed, and edit, resolve or reopen, and delete (asked first).
 */
import { useState, type ReactElement } from 'react';
import type { ReviewNote } from '../../../../../shared/review-dto.ts';
import { ErrorCallout } from '../../../components/error-callout.tsx';
import { Icon } from '../../../components/icons.tsx';
import { fullTime, timeAgo } from '../../plans/plan-labels.ts';
import { anchorLabel, linesTitle } from './anchor.ts';
import { NoteComposer } from './note-composer.tsx';
import { useScopedNotes } from './notes-context.tsx';

/** Props: the note, and whether it sits in the panel (with its place, clickable). */
export interface NoteCardProps {
  note: ReviewNote;
  inPanel?: boolean;
  onJump?(note: ReviewNote): void;
}

/** A note with its actions. */
export function NoteCard({ note, inPanel = false, onJump }: NoteCardProps): ReactElement {
  const editing = useScopedNotes((s) => (s.editing?.id === note.id ? s.editing : null));
  const startEdit = useScopedNotes((s) => s.startEdit);
  const setEditBody = useScopedNotes((s) => s.setEditBody);
  const cancelEdit = useScopedNotes((s) => s.cancelEdit);
  const saveEdit = useScopedNotes((s) => s.saveEdit);
  const setStatus = useScopedNotes((s) => s.setStatus);
  const remove = useScopedNotes((s) => s.remove);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const label = anchorLabel(note);
  const resolved = note.status === 'resolved';
  const canJump = inPanel && onJump && note.sandboxId !== null && note.path !== null;
  return (
    <article
      className={`note-card${resolved ? ' is-resolved' : ''}${note.outdated ? ' is-outdated' : ''}`}
      aria-label={`Note on ${label}`}
      data-note-id={note.id}
    >
      {canJump ? (
        <button type="button" className="note-anchor is-link" title="Show these lines in the diff" onClick={() => onJump?.(note)}>
          {label}
        </button>
      ) : inPanel ? (
        <span className="note-anchor">{label}</span>
      ) : null}
      <header className="note-card-header">
        {inPanel ? null : (
          <>
            <span className="note-avatar" aria-hidden="true">
              <Icon name="edit" />
            </span>
            {note.fromLine !== null ? (
              <span className="note-lines">{linesTitle(note.fromLine, note.toLine ?? note.fromLine)}</span>
            ) : null}
          </>
        )}
        {note.outdated ? (
          <span className="badge badge-warning" title="The lines this note was written on have changed since">
            Outdated
          </span>
        ) : null}
        {resolved ? <span className="badge badge-success">Resolved</span> : null}
        <span className="note-time muted" title={fullTime(note.createdAt)}>
          {timeAgo(note.createdAt)}
        </span>
        <span className="note-card-spacer" />
        {editing ? null : (
          <span className="note-actions">
            <button type="button" className="note-action" onClick={() => startEdit(note)} aria-label="Edit note" title="Edit">
              <Icon name="edit" />
            </button>
            <button
              type="button"
              className="note-action"
              disabled={busy}
              onClick={() => void act(() => setStatus(note.id, resolved ? 'open' : 'resolved'))}
              title={resolved ? 'Reopen: send it to the tool again' : 'Resolve: keep it, but stop sending it to the tool'}
            >
              {resolved ? <Icon name="refresh" /> : <Icon name="check" />}
              <span>{resolved ? 'Reopen' : 'Resolve'}</span>
            </button>
            <button
              type="button"
              className="note-action is-danger"
              onClick={() => setConfirming(true)}
              aria-label="Delete note"
              title="Delete"
            >
              <Icon name="trash" />
            </button>
          </span>
        )}
      </header>
      {note.outdated && note.anchorText !== null ? (
        <figure className="note-quote">
          <figcaption className="muted">Written on these lines, since changed:</figcaption>
          <pre>
            <code>{note.anchorText}</code>
          </pre>
        </figure>
      ) : null}
      {editing ? (
        <NoteComposer
          value={editing.body}
          onChange={setEditBody}
          onSave={saveEdit}
          onCancel={cancelEdit}
          saveLabel="Save changes"
        />
      ) : (
        <p className="note-body">{note.body}</p>
      )}
      {confirming ? (
        <div className="note-confirm" role="alert">
          <span>Delete this note for good? The tool no longer receives it; resolve it instead to keep it.</span>
          <button type="button" className="btn btn-sm" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-sm btn-danger"
            disabled={busy}
            onClick={() => void act(() => remove(note.id))}
          >
            Delete note
          </button>
        </div>
      ) : null}
      <ErrorCallout error={error} />
    </article>
  );
}
