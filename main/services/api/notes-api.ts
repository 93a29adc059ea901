/**
 * The review-note methods of the API (issue 23): list (each marked outdated when its lines
 * changed), add with its anchor, edit or resolve, delete. The work is in notes-service.ts.
 */
import type { ApiHandlers } from '../../../shared/contract.ts';
import { notesService } from '../notes-service.ts';
import type { ApiContext } from './context.ts';

type NoteMethods = 'listNotes' | 'addNote' | 'updateNote' | 'deleteNote';

/** Review notes. */
export function notesApi(context: ApiContext): Pick<ApiHandlers, NoteMethods> {
  const notes = notesService(context.bindery);
  // Open reviews reload their notes on this event (other processes' writes arrive as external ones).
  const changed = async <T>(work: T | Promise<T>): Promise<T> => {
    const value = await work;
    context.events?.emit('registryChanged', { areas: ['notes'], source: 'app' });
    return value;
  };
  return {
    listNotes: ({ plan, sandbox, status }) => notes.list(plan, { sandbox, status }),
    addNote: (input) => changed(notes.add(input)),
    updateNote: ({ id, body, status }) => changed(notes.update(id, { body, status })),
    deleteNote: ({ id }) => changed({ deleted: notes.remove(id) }),
  };
}
