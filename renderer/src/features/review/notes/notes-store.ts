/**
 * The review notes of the open plan: the list (fetched again as the diff changes, since the host
 * decides which notes went outdated), the note being written and the one being edited (kept here,
 * not in the components, so text survives a row scrolling out of the virtual list), the panel's
 * state and requests to jump to a note's lines.
 */
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { BinderyApi } from '../../../../../shared/contract.ts';
import type { NoteSide, NoteStatus, ReviewNote } from '../../../../../shared/review-dto.ts';
import type { LineRange } from './anchor.ts';

/** The calls the store makes (the real API, or a stand-in in tests). */
export type NotesClient = Pick<BinderyApi, 'listNotes' | 'addNote' | 'updateNote' | 'deleteNote'>;

/** The note being written: where it goes (nulls widen it to a file, sandbox or the plan) and its text. */
export interface NoteDraft {
  sandboxId: string | null;
  path: string | null;
  range: LineRange | null;
  /** The line a range was started from, so shift-click and drag extend from it. */
  anchorLine: number | null;
  /** True while the mouse still drags over the gutter: the composer waits for the release. */
  dragging: boolean;
  body: string;
}

/** A request to show a note's lines in the diff; each new `seq` moves once. */
export interface JumpRequest {
  noteId: string;
  sandboxId: string;
  path: string;
  side: NoteSide;
  line: number;
  seq: number;
}

/** The notes store's state and actions. */
export interface NotesState {
  planId: string | null;
  notes: ReviewNote[];
  loaded: boolean;
  error: unknown;
  draft: NoteDraft | null;
  editing: { id: string; body: string } | null;
  panelOpen: boolean;
  jump: JumpRequest | null;
  /** Switches to a plan's notes (kept when it is the same plan). */
  open(planId: string): void;
  load(): Promise<void>;
  /** Starts a note on lines, a file, a sandbox or the plan; shift extends an open range on the same side. */
  startDraft(target: Omit<NoteDraft, 'body' | 'anchorLine' | 'dragging'>, options?: { extend?: boolean; drag?: boolean }): void;
  /** Moves the end of a range being dragged. */
  dragTo(side: NoteSide, line: number): void;
  endDrag(): void;
  setDraftBody(body: string): void;
  cancelDraft(): void;
  saveDraft(): Promise<ReviewNote | null>;
  startEdit(note: ReviewNote): void;
  setEditBody(body: string): void;
  cancelEdit(): void;
  saveEdit(): Promise<void>;
  setStatus(id: string, status: NoteStatus): Promise<void>;
  remove(id: string): Promise<void>;
  setPanelOpen(open: boolean): void;
  jumpTo(note: ReviewNote): void;
}

/** Makes a notes store over `client`. */
export function createNotesStore(client: NotesClient): UseBoundStore<StoreApi<NotesState>> {
  return create<NotesState>()((set, get) => {
    const replace = (note: ReviewNote) =>
      set({ notes: get().notes.map((n) => (n.id === note.id ? note : n)) });
    const plan = () => {
      const { planId } = get();
      if (!planId) throw new Error('No plan is open: open a review from its plan page.');
      return planId;
    };
    return {
      planId: null,
      notes: [],
      loaded: false,
      error: null,
      draft: null,
      editing: null,
      panelOpen: false,
      jump: null,
      open: (planId) => {
        if (get().planId === planId) return;
        set({ planId, notes: [], loaded: false, error: null, draft: null, editing: null, jump: null });
      },
      load: async () => {
        const planId = get().planId;
        if (!planId) return;
        try {
          const notes = await client.listNotes({ plan: planId });
          // A plan switched meanwhile keeps its own list.
          if (get().planId === planId) set({ notes, loaded: true, error: null });
        } catch (error) {
          if (get().planId === planId) set({ error, loaded: true });
        }
      },
      startDraft: (target, options = {}) => {
        const current = get().draft;
        const range = target.range;
        if (
          options.extend &&
          range &&
          current?.range &&
          current.anchorLine !== null &&
          current.sandboxId === target.sandboxId &&
          current.path === target.path &&
          current.range.side === range.side
        ) {
          const from = Math.min(current.anchorLine, range.to);
          const to = Math.max(current.anchorLine, range.to);
          set({ draft: { ...current, range: { side: range.side, from, to }, dragging: Boolean(options.drag) } });
          return;
        }
        set({
          draft: {
            ...target,
            anchorLine: range ? range.from : null,
            dragging: Boolean(options.drag),
            // Text typed for the same place is kept; a new place starts empty.
            body: current && sameTarget(current, target) ? current.body : '',
          },
        });
      },
      dragTo: (side, line) => {
        const draft = get().draft;
        if (!draft?.dragging || !draft.range || draft.range.side !== side || draft.anchorLine === null) return;
        const from = Math.min(draft.anchorLine, line);
        const to = Math.max(draft.anchorLine, line);
        if (from !== draft.range.from || to !== draft.range.to) set({ draft: { ...draft, range: { side, from, to } } });
      },
      endDrag: () => {
        const draft = get().draft;
        if (draft?.dragging) set({ draft: { ...draft, dragging: false } });
      },
      setDraftBody: (body) => {
        const draft = get().draft;
        if (draft) set({ draft: { ...draft, body } });
      },
      cancelDraft: () => set({ draft: null }),
      saveDraft: async () => {
        const draft = get().draft;
        if (!draft) return null;
        const note = await client.addNote({
          plan: plan(),
          ...(draft.sandboxId ? { sandbox: draft.sandboxId } : {}),
          ...(draft.path ? { path: draft.path } : {}),
          ...(draft.range
            ? { side: draft.range.side, fromLine: draft.range.from, toLine: draft.range.to }
            : {}),
          body: draft.body,
        });
        set({ notes: [...get().notes, note], draft: get().draft === draft ? null : get().draft });
        return note;
      },
      startEdit: (note) => set({ editing: { id: note.id, body: note.body } }),
      setEditBody: (body) => {
        const editing = get().editing;
        if (editing) set({ editing: { ...editing, body } });
      },
      cancelEdit: () => set({ editing: null }),
      saveEdit: async () => {
        const editing = get().editing;
        if (!editing) return;
        replace(await client.updateNote({ id: editing.id, body: editing.body }));
        if (get().editing?.id === editing.id) set({ editing: null });
      },
      setStatus: async (id, status) => replace(await client.updateNote({ id, status })),
      remove: async (id) => {
        await client.deleteNote({ id });
        set({ notes: get().notes.filter((n) => n.id !== id), editing: get().editing?.id === id ? null : get().editing });
      },
      setPanelOpen: (panelOpen) => set({ panelOpen }),
      jumpTo: (note) => {
        if (!note.sandboxId || !note.path) return;
        set({
          jump: {
            noteId: note.id,
            sandboxId: note.sandboxId,
            path: note.path,
            side: note.side ?? 'new',
            line: note.fromLine ?? 1,
            seq: (get().jump?.seq ?? 0) + 1,
          },
        });
      },
    };
  });
}

function sameTarget(a: Omit<NoteDraft, 'body'> | NoteDraft, b: Pick<NoteDraft, 'sandboxId' | 'path' | 'range'>): boolean {
  return (
    a.sandboxId === b.sandboxId &&
    a.path === b.path &&
    a.range?.side === b.range?.side &&
    a.range?.from === b.range?.from &&
    a.range?.to === b.range?.to
  );
}
