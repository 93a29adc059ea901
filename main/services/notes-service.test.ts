/**
 * Review notes through the API as both hosts call it (issue 23, item 2), over a temp registry and
 * a real git repository's worktree sandbox: anchors, outdated notes, resolve and reopen, the
 * refusals, and the notes a re-run of the tool receives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiResult, MethodInput, MethodName, MethodOutput } from '../../shared/contract.ts';
import { NOTE_BODY_MAX, type ReviewNote } from '../../shared/review-dto.ts';
import { gitRepo } from '../testing/fixtures.ts';
import { freshBindery } from '../testing/registry.ts';
import { startApiRuntime, type ApiRuntime } from './api-runtime.ts';
import type { Bindery } from './bindery.ts';
import { NotesService, notesService } from './notes-service.ts';
import type { ReviewNotesDocument } from './notes-handover.ts';

const APP = ['export const a = 1;', 'export const b = 2;', 'export const c = 3;', 'export const d = 4;', 'export const e = 5;'].join('\n') + '\n';
// The tool hands back what it received, then rewrites line 2 of app.ts.
const RUN = 'cp "$BINDERY_REVIEW_NOTES" received.json && cp "$BINDERY_REVIEW_NOTES_MD" received.md && sed -i.bak "2s/.*/export const b = 22;/" src/app.ts && rm src/app.ts.bak';
const TOOL = `name: fixer\nrun: ${JSON.stringify(RUN)}\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n`;

let bindery: Bindery;
let runtime: ApiRuntime;
let planId: string;
let sandboxPath: string;

beforeEach(async () => {
  bindery = freshBindery();
  runtime = startApiRuntime({ bindery, host: 'web', pollMs: 60_000 });
  const { registry } = bindery;
  await registry.addResource({ name: 'local/app', typeName: 'git-checkout', location: gitRepo({ 'src/app.ts': APP, 'README.md': '# app\n' }) });
  registry.addProject({ name: 'demo' });
  registry.link('demo', 'local/app', null);
  await registry.importTools(TOOL, 'fixer.yaml');
  const detail = await (await bindery.plans.createPlan('fixer', 'demo')).provisioned;
  planId = detail.plan.id;
  sandboxPath = detail.bound[0]!.sandboxPath;
  // The sandbox changes line 3 and adds a file: app.ts is a changed file with context around line 3.
  fs.writeFileSync(path.join(sandboxPath, 'src/app.ts'), APP.replace('c = 3', 'c = 33'));
  fs.writeFileSync(path.join(sandboxPath, 'src/new.ts'), 'export const n = 1;\n');
});
afterEach(() => {
  runtime.stop();
  bindery.close();
});

async function call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
  const result = await runtime.dispatch(method, input);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
  return result.value as MethodOutput<M>;
}

async function failure<M extends MethodName>(method: M, input: MethodInput<M>): Promise<Extract<ApiResult, { ok: false }>['error']> {
  const result = await runtime.dispatch(method, input);
  if (result.ok) throw new Error(`${method} unexpectedly succeeded`);
  return result.error;
}

const note = (input: Partial<MethodInput<'addNote'>>) => call('addNote', { plan: planId, body: 'fix this', ...input });
const outdated = async () => Object.fromEntries((await call('listNotes', { plan: planId })).map((n) => [n.body, n.outdated]));

describe('review notes', () => {
  it('anchors notes on changed and context lines of either side, files, sandboxes and the plan', async () => {
    const changed = await note({ sandbox: 'repo', path: 'src/app.ts', side: 'new', fromLine: 3, body: 'changed line' });
    expect(changed).toMatchObject({ resourceName: 'local/app', fromLine: 3, toLine: 3, anchorText: 'export const c = 33;', status: 'open', outdated: false });
    const old = await note({ sandbox: 'repo', path: 'src/app.ts', side: 'old', fromLine: 2, toLine: 3, body: 'old lines' });
    expect(old.anchorText).toBe('export const b = 2;\nexport const c = 3;');
    const context = await note({ sandbox: 'local/app', path: 'src/app.ts', side: 'new', fromLine: 5, body: 'context line' });
    expect(context.anchorText).toBe('export const e = 5;');
    // A file the sandbox did not change can carry notes too, on either side (both are its text).
    expect((await note({ sandbox: 'repo', path: 'README.md', side: 'old', fromLine: 1, body: 'readme' })).anchorText).toBe('# app');
    const file = await note({ sandbox: 'repo', path: 'src/new.ts', body: 'whole file' });
    expect([file.side, file.fromLine, file.anchorText]).toEqual([null, null, null]);
    const plan = await note({ body: 'whole plan' });
    expect([plan.sandboxId, plan.resourceName, plan.path]).toEqual([null, null, null]);
    expect((await note({ sandbox: 'repo', body: 'whole sandbox' })).resourceName).toBe('local/app');

    const listed = await call('listNotes', { plan: planId });
    expect(listed.map((n) => n.body)).toEqual(['changed line', 'old lines', 'context line', 'readme', 'whole file', 'whole plan', 'whole sandbox']);
    expect(listed.every((n) => !n.outdated)).toBe(true);
    expect((await call('listNotes', { plan: planId, sandbox: 'repo' })).map((n) => n.body)).not.toContain('whole plan');
  });

  it('marks a note outdated when the sandbox rewrites its lines, and only that note', async () => {
    await note({ sandbox: 'repo', path: 'src/app.ts', side: 'new', fromLine: 3, body: 'on c' });
    await note({ sandbox: 'repo', path: 'src/app.ts', side: 'new', fromLine: 4, toLine: 5, body: 'on d-e' });
    await note({ sandbox: 'repo', path: 'src/app.ts', side: 'old', fromLine: 3, body: 'old c' });
    await note({ sandbox: 'repo', path: 'src/new.ts', side: 'new', fromLine: 1, body: 'new file' });
    await note({ sandbox: 'repo', path: 'README.md', side: 'new', fromLine: 1, body: 'readme now' });
    await note({ sandbox: 'repo', path: 'README.md', side: 'old', fromLine: 1, body: 'readme before' });
    expect(Object.values(await outdated()).some(Boolean)).toBe(false);
    fs.writeFileSync(path.join(sandboxPath, 'src/app.ts'), APP.replace('c = 3', 'c = 333'));
    // A file unchanged when noted, changed since: its new side moved, its old side did not.
    fs.writeFileSync(path.join(sandboxPath, 'README.md'), '# app, renamed\n');
    expect(await outdated()).toMatchObject({ 'on c': true, 'on d-e': false, 'old c': false, 'new file': false, 'readme now': true, 'readme before': false });
    // Lines gone (the file got shorter, or was deleted) are outdated too; the old side stays.
    fs.rmSync(path.join(sandboxPath, 'src/new.ts'));
    fs.writeFileSync(path.join(sandboxPath, 'src/app.ts'), 'export const a = 1;\n');
    expect(await outdated()).toMatchObject({ 'on c': true, 'on d-e': true, 'old c': false, 'new file': true });
    // Put back as written, the note is current again.
    fs.writeFileSync(path.join(sandboxPath, 'src/app.ts'), APP.replace('c = 3', 'c = 33'));
    expect((await outdated())['on c']).toBe(false);
    const shown = (await call('listNotes', { plan: planId })).find((n) => n.body === 'on c') as ReviewNote;
    expect(shown.anchorText).toBe('export const c = 33;');
  });

  it('edits, resolves and reopens a note, by id or a unique start of it, and deletes it', async () => {
    const added = await note({ sandbox: 'repo', path: 'src/app.ts', side: 'new', fromLine: 3 });
    const resolved = await call('updateNote', { id: added.id.slice(0, 20).toLowerCase(), status: 'resolved' });
    expect([resolved.status, resolved.resolvedAt !== null, resolved.body]).toEqual(['resolved', true, 'fix this']);
    expect(await call('listNotes', { plan: planId, status: 'open' })).toEqual([]);
    const edited = await call('updateNote', { id: added.id, body: '  say it better  ' });
    expect([edited.body, edited.status, edited.resolvedAt]).toEqual(['say it better', 'resolved', resolved.resolvedAt]);
    const reopened = await call('updateNote', { id: added.id, status: 'open' });
    expect([reopened.status, reopened.resolvedAt]).toEqual(['open', null]);
    expect((await call('listNotes', { plan: planId, status: 'open' })).map((n) => n.id)).toEqual([added.id]);
    expect((await failure('updateNote', { id: added.id })).message).toMatch(/Say what to change/);
    expect(await call('deleteNote', { id: added.id })).toEqual({ deleted: true });
    expect(await call('deleteNote', { id: added.id })).toEqual({ deleted: false });
    expect(await call('listNotes', { plan: planId })).toEqual([]);
  });

  it('refuses what cannot be anchored, saying what to do', async () => {
    const refused = async (input: Partial<MethodInput<'addNote'>>) => (await failure('addNote', { plan: planId, body: 'x', ...input })).message;
    expect(await refused({ plan: 'NOPE1234' })).toMatch(/There is no plan "NOPE1234"/);
    expect(await refused({ sandbox: 'nothing', path: 'src/app.ts' })).toMatch(/has no sandbox for "nothing": use one of local\/app/);
    expect(await refused({ path: 'src/app.ts' })).toMatch(/a note on a file needs its sandbox/);
    expect(await refused({ sandbox: 'repo', path: 'src/missing.ts' })).toMatch(/src\/missing\.ts is not a file of the sandbox of local\/app/);
    expect(await refused({ sandbox: 'repo', path: 'src/app.ts', side: 'new', fromLine: 5, toLine: 6 })).toMatch(/has 5 line\(s\) on the sandbox side, so lines 5-6 are not there/);
    expect(await refused({ sandbox: 'repo', path: 'src/app.ts', side: 'new', fromLine: 3, toLine: 2 })).toMatch(/end before they start/);
    expect(await refused({ sandbox: 'repo', path: 'src/new.ts', side: 'old', fromLine: 1 })).toMatch(/has no original text to note lines on/);
    expect(await refused({ sandbox: 'repo', path: '../outside.ts' })).toMatch(/relative path inside the sandbox/);
    expect(await refused({ body: '   ' })).toMatch(/is empty/);
    expect((await failure('updateNote', { id: 'NOPE', status: 'resolved' })).message).toMatch(/There is no review note "NOPE"/);
    expect(await call('listNotes', { plan: planId })).toEqual([]);
  });

  it('refuses an empty or too long note from a host that calls the service directly (the CLI), and lists notes added together in order', async () => {
    const service = notesService(bindery);
    await expect(service.add({ plan: planId, body: '  \n ' })).rejects.toThrow(/The note is empty: write what should change/);
    await expect(service.add({ plan: planId, body: 'x'.repeat(NOTE_BODY_MAX + 1) })).rejects.toThrow(/more than the 20000 a note holds/);
    const kept = await service.add({ plan: planId, body: 'x'.repeat(NOTE_BODY_MAX) });
    await expect(service.update(kept.id, { body: ' ' })).rejects.toThrow(/The note is empty/);
    await service.remove(kept.id);
    // Many within one millisecond (a clock that stands still): ids, which break ties of the time, follow the order of adding.
    const still = new NotesService({ db: bindery.db, plans: bindery.plans, planSandboxes: () => [], changedPaths: async () => new Set(), tempDir: bindery.dataDir, now: () => new Date('2026-01-01T00:00:00Z') });
    const added: string[] = [];
    for (let i = 0; i < 40; i += 1) added.push((await still.add({ plan: planId, body: `n${i}` })).body);
    expect((await still.list(planId)).map((n) => n.body)).toEqual(added);
  });

  it("hands the open notes to the tool's next run as JSON and Markdown outside the sandbox", async () => {
    const line = await note({ sandbox: 'repo', path: 'src/app.ts', side: 'new', fromLine: 2, body: 'b should be 22' });
    await note({ body: 'and keep the tests green' });
    const done = await note({ sandbox: 'repo', path: 'README.md', body: 'already fine' });
    await call('updateNote', { id: done.id, status: 'resolved' });

    let run = await call('runTool', { plan: planId });
    while (run.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      run = await call('showRun', { runId: run.id });
    }
    expect(run.status, run.output.map((c) => c.text).join('')).toBe('exited');
    const received = JSON.parse(fs.readFileSync(path.join(sandboxPath, 'received.json'), 'utf8')) as ReviewNotesDocument;
    expect(received).toEqual({
      plan_id: planId,
      notes: [
        {
          id: line.id,
          resource: 'local/app',
          sandbox_path: sandboxPath,
          path: 'src/app.ts',
          side: 'new',
          from_line: 2,
          to_line: 2,
          anchor_text: 'export const b = 2;',
          body: 'b should be 22',
          outdated: false,
          created_at: line.createdAt,
        },
        expect.objectContaining({ resource: null, sandbox_path: null, path: null, body: 'and keep the tests green' }),
      ],
    });
    const markdown = fs.readFileSync(path.join(sandboxPath, 'received.md'), 'utf8');
    expect(markdown).toContain(`# Review notes for plan ${planId}`);
    expect(markdown).toContain('## 1. `src/app.ts`, line 2 (local/app)');
    expect(markdown).toContain('```\nexport const b = 2;\n```\n\n> b should be 22');
    expect(markdown).toContain('## 2. The whole plan');
    expect(markdown).not.toContain('already fine');
    // The files live in the data directory, and the run's rewrite of line 2 outdates the note.
    expect(fs.existsSync(path.join(bindery.dataDir, 'review-notes', `${planId}.json`))).toBe(true);
    expect(await outdated()).toMatchObject({ 'b should be 22': true, 'and keep the tests green': false });
  });
});
