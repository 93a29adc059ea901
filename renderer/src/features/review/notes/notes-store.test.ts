import { describe, expect, it } from 'vitest';
import type { ReviewNote } from '../../../../../shared/review-dto.ts';
import { createNotesStore, type NotesClient } from './notes-store.ts';
import { requestBlocker } from './request-blocker.ts';

/** An in-memory stand-in for the host's notes (the store's only outside dependency). */
function memoryClient(): NotesClient & { rows: ReviewNote[]; calls: string[] } {
  const rows: ReviewNote[] = [];
  const calls: string[] = [];
  let next = 1;
  const now = () => new Date().toISOString();
  return {
    rows,
    calls,
    listNotes: async (input) => (calls.push('list'), rows.filter((r) => r.planId === input.plan)),
    addNote: async (input) => {
      calls.push('add');
      const row: ReviewNote = {
        id: `n${next++}`,
        planId: input.plan,
        sandboxId: input.sandbox ?? null,
        resourceName: input.sandbox ? 'local/site' : null,
        path: input.path ?? null,
        side: input.side ?? null,
        fromLine: input.fromLine ?? null,
        toLine: input.toLine ?? null,
        anchorText: input.fromLine ? 'text' : null,
        body: input.body,
        status: 'open',
        outdated: false,
        createdAt: now(),
        updatedAt: now(),
        resolvedAt: null,
      };
      rows.push(row);
      return row;
    },
    updateNote: async (input) => {
      calls.push('update');
      const row = rows.find((r) => r.id === input.id);
      if (!row) throw new Error('no such note');
      Object.assign(row, { body: input.body ?? row.body, status: input.status ?? row.status });
      return { ...row };
    },
    deleteNote: async (input) => {
      calls.push('delete');
      const at = rows.findIndex((r) => r.id === input.id);
      if (at >= 0) rows.splice(at, 1);
      return { deleted: at >= 0 };
    },
  };
}

const lines = { sandboxId: 's1', path: 'src/a.ts' };

describe('notes store', () => {
  it('writes a note on a range with its side and lines, and adds it to the list', async () => {
    const client = memoryClient();
    const store = createNotesStore(client);
    store.getState().open('p1');
    store.getState().startDraft({ ...lines, range: { side: 'new', from: 4, to: 4 } });
    store.getState().setDraftBody('Rename this');
    const saved = await store.getState().saveDraft();
    expect(saved).toMatchObject({ sandboxId: 's1', path: 'src/a.ts', side: 'new', fromLine: 4, toLine: 4, body: 'Rename this' });
    expect(store.getState().notes).toHaveLength(1);
    expect(store.getState().draft).toBeNull();
  });

  it('extends a range by shift-click from the first line, either way, on the same side only', () => {
    const store = createNotesStore(memoryClient());
    store.getState().open('p1');
    store.getState().startDraft({ ...lines, range: { side: 'new', from: 10, to: 10 } });
    store.getState().startDraft({ ...lines, range: { side: 'new', from: 6, to: 6 } }, { extend: true });
    expect(store.getState().draft?.range).toEqual({ side: 'new', from: 6, to: 10 });
    store.getState().startDraft({ ...lines, range: { side: 'new', from: 12, to: 12 } }, { extend: true });
    expect(store.getState().draft?.range).toEqual({ side: 'new', from: 10, to: 12 });
    // The other side starts over.
    store.getState().startDraft({ ...lines, range: { side: 'old', from: 3, to: 3 } }, { extend: true });
    expect(store.getState().draft?.range).toEqual({ side: 'old', from: 3, to: 3 });
  });

  it('follows a drag over the gutter and opens the composer on release', () => {
    const store = createNotesStore(memoryClient());
    store.getState().open('p1');
    store.getState().startDraft({ ...lines, range: { side: 'old', from: 8, to: 8 } }, { drag: true });
    store.getState().dragTo('old', 11);
    store.getState().dragTo('new', 20);
    expect(store.getState().draft).toMatchObject({ range: { side: 'old', from: 8, to: 11 }, dragging: true });
    store.getState().endDrag();
    expect(store.getState().draft?.dragging).toBe(false);
    store.getState().dragTo('old', 30);
    expect(store.getState().draft?.range).toEqual({ side: 'old', from: 8, to: 11 });
  });

  it('keeps typed text for the same place and starts empty elsewhere', () => {
    const store = createNotesStore(memoryClient());
    store.getState().open('p1');
    store.getState().startDraft({ ...lines, range: null });
    store.getState().setDraftBody('half written');
    store.getState().startDraft({ ...lines, range: null });
    expect(store.getState().draft?.body).toBe('half written');
    store.getState().startDraft({ sandboxId: null, path: null, range: null });
    expect(store.getState().draft?.body).toBe('');
  });

  it('edits, resolves, reopens and deletes through the client', async () => {
    const client = memoryClient();
    const store = createNotesStore(client);
    store.getState().open('p1');
    store.getState().startDraft({ sandboxId: null, path: null, range: null });
    store.getState().setDraftBody('plan note');
    const saved = (await store.getState().saveDraft())!;
    store.getState().startEdit(saved);
    store.getState().setEditBody('better words');
    await store.getState().saveEdit();
    expect(store.getState().notes[0]?.body).toBe('better words');
    expect(store.getState().editing).toBeNull();
    await store.getState().setStatus(saved.id, 'resolved');
    expect(store.getState().notes[0]?.status).toBe('resolved');
    await store.getState().setStatus(saved.id, 'open');
    expect(store.getState().notes[0]?.status).toBe('open');
    await store.getState().remove(saved.id);
    expect(store.getState().notes).toEqual([]);
    expect(client.rows).toEqual([]);
  });

  it("loads a plan's notes and drops an answer that arrives after a switch to another plan", async () => {
    const client = memoryClient();
    const store = createNotesStore(client);
    store.getState().open('p1');
    await client.addNote({ plan: 'p1', body: 'one' });
    const late = store.getState().load();
    store.getState().open('p2');
    await late;
    expect(store.getState().notes).toEqual([]);
    store.getState().open('p1');
    await store.getState().load();
    expect(store.getState().notes.map((n) => n.body)).toEqual(['one']);
  });

  it('asks for a jump to the first line of a line note only', () => {
    const store = createNotesStore(memoryClient());
    const base = { id: 'n', planId: 'p1', sandboxId: 's1', resourceName: 'r', path: 'a.ts', anchorText: null, body: 'b', status: 'open', outdated: false, createdAt: '', updatedAt: '', resolvedAt: null } as const;
    store.getState().jumpTo({ ...base, side: 'old', fromLine: 7, toLine: 9 });
    expect(store.getState().jump).toMatchObject({ side: 'old', line: 7, seq: 1, path: 'a.ts' });
    store.getState().jumpTo({ ...base, sandboxId: null, path: null, side: null, fromLine: null, toLine: null });
    expect(store.getState().jump?.seq).toBe(1);
  });
});

describe('requestBlocker', () => {
  it('says why Request changes waits: no command, a run working, no open notes', () => {
    expect(requestBlocker(2, null, false)).toMatch(/no run command/);
    expect(requestBlocker(2, 'make fix', true)).toMatch(/running now/);
    expect(requestBlocker(0, 'make fix', false)).toMatch(/No open notes/);
    expect(requestBlocker(1, 'make fix', false)).toBeNull();
  });
});
