/**
 * Notes after the sandbox moved on: on a file committed in part (issue 23 items 1 and 2 together)
 * the old side a note is anchored to is the one the viewer shows, the original the partial commit
 * left, not the base; a discarded sandbox's notes are not handed to the next run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anchorOf } from './notes-anchor.ts';
import { writeReviewNotes, type ReviewNotesDocument } from './notes-handover.ts';
import { notesService } from './notes-service.ts';
import { apiHarness, toolYaml, type ApiHarness } from '../testing/api-harness.ts';

// 30 lines; a sandbox that inserts two lines at the top and rewrites line 25 (two hunks).
const base = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join('');
const edited = `new a\nnew b\n${base.replace('line 25\n', 'twenty-five\n')}`;

let api: ApiHarness;
beforeEach(async () => {
  api = await apiHarness({ files: { 'f.txt': base }, tools: [toolYaml('editor')] });
});
afterEach(() => api.close());

describe('notes after a partial commit', () => {
  it('anchor old lines to the original the commit left, as the diff shows it, and outdate notes on lines it changed', async () => {
    const { planId, sandboxId, sandboxPath } = await api.readyPlan('editor');
    fs.writeFileSync(path.join(sandboxPath, 'f.txt'), edited);
    const before = await api.call('addNote', { plan: planId, sandbox: sandboxId, path: 'f.txt', side: 'old', fromLine: 24, toLine: 25, body: 'before' });
    expect(before.anchorText).toBe('line 24\nline 25');
    // Only the top insertion goes: the original gains two lines, so the old side's numbers move.
    await api.call('commitSandbox', { plan: planId, sandbox: sandboxId, paths: ['f.txt'], selections: { 'f.txt': { hunks: [1] } } });

    const view = await api.call('fileDiff', { plan: planId, sandbox: sandboxId, path: 'f.txt' });
    const after = await api.call('addNote', { plan: planId, sandbox: sandboxId, path: 'f.txt', side: 'old', fromLine: 26, toLine: 27, body: 'after' });
    expect(after.anchorText).toBe(anchorOf(view.oldText!, 26, 27));
    expect(after.anchorText).toBe('line 24\nline 25');
    const notes = await api.call('listNotes', { plan: planId });
    expect(notes.map((n) => [n.body, n.outdated])).toEqual([['before', true], ['after', false]]);
  });

  it("hand the next run no note of a discarded sandbox, whose folder is gone", async () => {
    const { planId, sandboxId, sandboxPath } = await api.readyPlan('editor');
    await api.call('addNote', { plan: planId, sandbox: sandboxId, path: 'f.txt', side: 'new', fromLine: 1, body: 'on the sandbox' });
    await api.call('addNote', { plan: planId, body: 'on the plan' });
    await api.call('discardSandbox', { plan: planId, sandbox: sandboxId, confirm: true });
    expect(fs.existsSync(sandboxPath)).toBe(false);
    const files = await writeReviewNotes(notesService(api.bindery), api.bindery, planId);
    const handed = JSON.parse(fs.readFileSync(files.json, 'utf8')) as ReviewNotesDocument;
    expect([files.count, handed.notes.map((n) => n.body)]).toEqual([1, ['on the plan']]);
    expect(fs.readFileSync(files.markdown, 'utf8')).not.toContain(sandboxPath);
  });
});
