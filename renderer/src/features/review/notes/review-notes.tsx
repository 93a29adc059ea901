/**
 * What the review screen takes from the notes feature: a hook that loads the plan's notes (again
 * as the changes move, since the host decides which went outdated) and gives the scope, and the
 * header switch, the panel and the provider for the diff, each already bound to that scope.
 */
import { useEffect, useMemo, type ReactElement, type ReactNode } from 'react';
import type { PlanView } from '../../../../../shared/dto.ts';
import { usePolling } from '../../../stores/plans-sync.ts';
import { NotesScopeProvider, type NotesScope } from './notes-context.tsx';
import { NotesPanel, NotesToggle } from './notes-panel.tsx';
import { useNotes } from './use-notes.ts';

/** How often notes are fetched again while the review is open (agents answer them too). */
const POLL_MS = 5000;

/** Loads the plan's notes and returns the scope of the shown file and whether the panel is open. */
export function useReviewNotes(
  planId: string,
  sandboxId: string,
  path: string | null,
  changes: unknown,
): { scope: NotesScope; panelOpen: boolean } {
  const load = useNotes((s) => s.load);
  useEffect(() => {
    useNotes.getState().open(planId);
  }, [planId]);
  // New changes (a run rewrote lines) may leave notes outdated: fetch them with the changes.
  useEffect(() => void load(), [planId, changes, load]);
  usePolling(load, POLL_MS, true);
  const panelOpen = useNotes((s) => s.panelOpen);
  const scope = useMemo(() => ({ store: useNotes, planId, sandboxId, path }), [planId, sandboxId, path]);
  return { scope, panelOpen };
}

/** The header's "Notes (n)" switch. */
export function ReviewNotesToggle({ scope }: { scope: NotesScope }): ReactElement {
  return (
    <NotesScopeProvider value={scope}>
      <NotesToggle />
    </NotesScopeProvider>
  );
}

/** The notes panel. */
export function ReviewNotesPanel(props: {
  scope: NotesScope;
  view: PlanView | undefined;
  onRunFinished(): void;
}): ReactElement {
  return (
    <NotesScopeProvider value={props.scope}>
      <NotesPanel view={props.view} onRunFinished={props.onRunFinished} />
    </NotesScopeProvider>
  );
}

/** Gives the diff the notes of the shown file. */
export function ReviewNotesScope({ scope, children }: { scope: NotesScope; children: ReactNode }): ReactElement {
  return <NotesScopeProvider value={scope}>{children}</NotesScopeProvider>;
}
