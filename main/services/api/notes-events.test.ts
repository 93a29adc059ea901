/** Review notes push an event when they change, so open reviews reload them instead of polling. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiHarness, toolYaml, type ApiHarness } from '../../testing/api-harness.ts';

let api: ApiHarness;
beforeEach(async () => {
  api = await apiHarness({ files: { 'README.md': '# demo\n' }, tools: [toolYaml('editor', 'true')] });
});
afterEach(() => api.close());

const notesEvents = () => api.events.filter((m) => m.event === 'registryChanged' && m.payload.areas.includes('notes')).length;

describe('review notes events', () => {
  it('adding, editing, resolving and deleting a note each say "notes changed"; listing says nothing', async () => {
    const { planId, sandboxId, sandboxPath } = await api.readyPlan('editor');
    fs.writeFileSync(path.join(sandboxPath, 'README.md'), '# demo, edited\n');
    const note = await api.call('addNote', { plan: planId, sandbox: sandboxId, path: 'README.md', side: 'new', fromLine: 1, body: 'Say what it is.' });
    expect(notesEvents()).toBe(1);
    await api.call('listNotes', { plan: planId });
    expect(notesEvents()).toBe(1);
    await api.call('updateNote', { id: note.id, body: 'Say what it does.' });
    await api.call('updateNote', { id: note.id, status: 'resolved' });
    await api.call('deleteNote', { id: note.id });
    expect(notesEvents()).toBe(4);
  });
});
