/**
 * The notes panel beside the diff: the plan's notes grouped by file, each with its place (a click
 * shows its lines), text, edit, resolve or reopen and delete; a note on a whole file or the plan;
 * "Request changes" and the run it starts, shown as the plan page shows runs.
 */
import { useMemo, useState, type ReactElement } from 'react';
import type { PlanView } from '../../../../../shared/dto.ts';
import type { ReviewNote } from '../../../../../shared/review-dto.ts';
import { ErrorCallout } from '../../../components/error-callout.tsx';
import { Icon } from '../../../components/icons.tsx';
import { useRuns } from '../../../stores/runs-store.ts';
import { RunPanel } from '../../plans/run-panel.tsx';
import { replaceWith } from '../../plans/plan-route.ts';
import { groupNotes, openCount } from './anchor.ts';
import { NoteCard } from './note-card.tsx';
import { NoteComposer } from './note-composer.tsx';
import { useNotesScope, useScopedNotes } from './notes-context.tsx';
import { RequestChanges } from './request-changes.tsx';
import './note-card.css';
import './notes-panel.css';

/** Props: the plan's view (for its command and runs) and what to do after a run ends. */
export interface NotesPanelProps {
  view: PlanView | undefined;
  onRunFinished(): void;
}

/** The panel (rendered only while open). */
export function NotesPanel({ view, onRunFinished }: NotesPanelProps): ReactElement {
  const scope = useNotesScope();
  const notes = useScopedNotes((s) => s.notes);
  const loaded = useScopedNotes((s) => s.loaded);
  const error = useScopedNotes((s) => s.error);
  const draft = useScopedNotes((s) => (s.draft && s.draft.range === null ? s.draft : null));
  const startDraft = useScopedNotes((s) => s.startDraft);
  const setPanelOpen = useScopedNotes((s) => s.setPanelOpen);
  const jumpTo = useScopedNotes((s) => s.jumpTo);
  const groups = useMemo(() => groupNotes(notes), [notes]);
  // A run started here shows at once, before the plan view is fetched again.
  const [startedId, setStartedId] = useState<string | null>(null);
  const started = useRuns((s) => (startedId ? s.runs[startedId]?.info : undefined));
  const lastRun = started ?? view?.lastRun ?? null;
  const open = openCount(notes);
  const jump = (note: ReviewNote) => {
    if (!scope || !note.sandboxId || !note.path) return;
    if (note.sandboxId !== scope.sandboxId || note.path !== scope.path) {
      replaceWith({ kind: 'review', planId: scope.planId, sandboxId: note.sandboxId, path: note.path });
    }
    jumpTo(note);
  };
  return (
    <aside className="notes-panel" aria-label="Review notes">
      <header className="notes-panel-header">
        <span className="notes-panel-title">Notes</span>
        <span className="badge">{open} open</span>
        {notes.length > open ? <span className="muted notes-panel-resolved">{notes.length - open} resolved</span> : null}
        <span className="note-card-spacer" />
        <button
          type="button"
          className="btn btn-ghost btn-icon btn-sm"
          aria-label="Close the notes panel"
          title="Close"
          onClick={() => setPanelOpen(false)}
        >
          <Icon name="close" />
        </button>
      </header>
      <div className="notes-panel-scroll">
        <RequestChanges view={view} open={open} onStarted={setStartedId} />
        {view?.toolRun && lastRun ? (
          <RunPanel
            planId={view.plan.id}
            command={view.toolRun}
            runnable={view.sandboxes.some((s) => s.status === 'ready' || s.status === 'committed')}
            lastRun={lastRun}
            onFinished={() => {
              onRunFinished();
              void scope?.store.getState().load();
            }}
          />
        ) : null}
        <ErrorCallout error={error} />
        {draft ? (
          <NoteComposer
            title={draft.sandboxId === null ? 'The whole plan' : `${draft.path ?? 'The sandbox'} (whole file)`}
            value={draft.body}
            onChange={(body) => scope?.store.getState().setDraftBody(body)}
            onSave={() => scope?.store.getState().saveDraft() ?? Promise.resolve()}
            onCancel={() => scope?.store.getState().cancelDraft()}
          />
        ) : null}
        {groups.map((group) => (
          <section key={group.key} className="notes-group" aria-label={`Notes on ${group.title}`}>
            <h3 className="notes-group-title">
              <Icon name={group.path ? 'file' : 'plan'} />
              <span className="notes-group-path" title={group.title}>
                {group.title}
              </span>
              {group.resourceName ? <span className="chip">{group.resourceName}</span> : null}
              <span className="notes-group-count muted">{group.open > 0 ? `${group.open} open` : 'resolved'}</span>
            </h3>
            {group.notes.map((note) => (
              <NoteCard key={note.id} note={note} inPanel onJump={jump} />
            ))}
          </section>
        ))}
        {loaded && notes.length === 0 && !draft ? (
          <div className="notes-empty">
            <p className="notes-empty-title">No notes yet</p>
            <p className="muted">
              Hover a line in the diff and click <span className="notes-plus">+</span> (drag for several lines), or
              press <kbd>c</kbd> on a change. The tool receives the open notes when you request changes.
            </p>
          </div>
        ) : null}
        {!draft && scope ? (
          <button
            type="button"
            className="btn btn-sm notes-plan-btn"
            onClick={() => startDraft({ sandboxId: null, path: null, range: null })}
          >
            <Icon name="plus" /> Note on the whole plan
          </button>
        ) : null}
      </div>
    </aside>
  );
}

/** The header's switch for the panel, with the number of open notes. */
export function NotesToggle(): ReactElement {
  const open = useScopedNotes((s) => openCount(s.notes));
  const panelOpen = useScopedNotes((s) => s.panelOpen);
  const setPanelOpen = useScopedNotes((s) => s.setPanelOpen);
  return (
    <button
      type="button"
      className="btn notes-toggle"
      aria-pressed={panelOpen}
      title={panelOpen ? 'Hide the review notes' : 'Show the review notes'}
      onClick={() => setPanelOpen(!panelOpen)}
    >
      <Icon name="edit" /> Notes
      <span className={`notes-toggle-count${open > 0 ? ' is-open' : ''}`} aria-label={`${open} open`}>
        {open}
      </span>
    </button>
  );
}
