/**
 * Which notes the diff shows, handed down without threading props through the viewer: the review
 * screen provides its store, plan, sandbox and file; the viewer elsewhere (no provider) draws no
 * note controls at all.
 */
import { createContext, useContext, type ReactElement, type ReactNode } from 'react';
import { useStore, type StoreApi, type UseBoundStore } from 'zustand';
import { createNotesStore, type NotesState } from './notes-store.ts';

/** The notes the diff of one file works with. */
export interface NotesScope {
  store: UseBoundStore<StoreApi<NotesState>>;
  planId: string;
  sandboxId: string;
  /** The file shown (null: none). */
  path: string | null;
}

const NotesScopeContext = createContext<NotesScope | null>(null);

/** Gives the diff below its notes. */
export function NotesScopeProvider({ value, children }: { value: NotesScope; children: ReactNode }): ReactElement {
  return <NotesScopeContext.Provider value={value}>{children}</NotesScopeContext.Provider>;
}

/** The scope, or null outside a review (no note controls then). */
export function useNotesScope(): NotesScope | null {
  return useContext(NotesScopeContext);
}

// Hooks cannot be skipped without a scope: they read this empty store instead.
const refuse = () => Promise.reject(new Error('Notes are only available in a review.'));
const EMPTY = createNotesStore({ listNotes: refuse, addNote: refuse, updateNote: refuse, deleteNote: refuse });

/** Selects from the scope's store (from an empty one outside a review). */
export function useScopedNotes<T>(select: (state: NotesState) => T): T {
  const scope = useContext(NotesScopeContext);
  return useStore(scope?.store ?? EMPTY, select);
}
