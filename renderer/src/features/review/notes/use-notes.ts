/**
 * The app's one notes store, over the real API (kept apart from notes-store.ts so its tests need
 * no transport).
 */
import { api } from '../../../api/index.ts';
import { createNotesStore } from './notes-store.ts';

/** The review notes store of the window. */
export const useNotes = createNotesStore(api);
