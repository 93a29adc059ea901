/**
 * What the review screen takes from the notes feature: a hook that loads the plan's notes (again
 * as the changes move, since the host decides which went outdated, and on notes events) and gives the scope, and the
 * header switch, the panel and the provider for the diff, each already bound to that scope.
 */
import { useEffect, useMemo, type ReactElement, type ReactNode } from 'react';
import type { PlanView } from '../../../../../shared/dto.ts';
import { subscribe } from '../../../api/index.ts';
import { NotesScopeProvider, type NotesScope } from './notes-context.tsx';
import { NotesPanel, NotesToggle } from './notes-panel.tsx';
import { useNotes } from './use-notes.ts';

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
  // New changes (a run rewrote lines) may leave notes outdated: fetch them with the changes, and
  // when notes change here or in another process (an agent answering one), or a run ends.
  useEffect(() => void load(), [planId, changes, load]);
  useEffect(() => {
    const offNotes = subscribe('registryChanged', (payload) => {
      if (payload.areas.includes('notes')) void load();
    });
    const offRuns = subscribe('runChanged', (payload) => {
      if (payload.planId === planId && payload.status !== 'running') void load();
    });
    return () => {
      offNotes();
      offRuns();
    };
  }, [planId, load]);
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
