/**
 * The files a run's tool receives (notes-handover.ts): whole, private to the user, written again
 * safely when two runs of one plan hand over at once, refused with a remedy where they cannot be
 * written, and a Markdown rendering whose sections the person's text cannot break.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReviewNote } from '../../shared/review-dto.ts';
import { tempDir } from '../testing/fixtures.ts';
import type { Bindery } from './bindery.ts';
import { reviewNotesDocument, reviewNotesMarkdown, writeReviewNotes, type ReviewNotesDocument } from './notes-handover.ts';
import type { NotesService } from './notes-service.ts';

const PLAN = '01PLAN';
const POSIX = process.platform !== 'win32';

function aNote(over: Partial<ReviewNote>): ReviewNote {
  return {
    ...{ id: '01NOTE', planId: PLAN, sandboxId: 'S1', resourceName: 'local/app', path: 'src/app.ts', side: 'new', fromLine: 2, toLine: 2 },
    ...{ anchorText: 'const b = 2;', body: 'fix it', status: 'open', outdated: false, createdAt: 'T', updatedAt: 'T', resolvedAt: null },
    ...over,
  } as ReviewNote;
}

/** The service and core the handover reads from: these notes, one sandbox, this data directory. */
function source(notes: ReviewNote[], dataDir: string) {
  const service = { list: async () => notes } as unknown as NotesService;
  const bindery = { dataDir, sandboxes: { planSandboxes: () => [{ id: 'S1', path: '/sandboxes/app', status: 'ready' }] } } as unknown as Pick<Bindery, 'dataDir' | 'sandboxes'>;
  return [service, bindery] as const;
}

describe('review notes handover', () => {
  it('writes whole files, readable by the user only, even when two runs of one plan hand over at once', async () => {
    const dataDir = tempDir();
    const [service, bindery] = source([aNote({ body: 'x'.repeat(200_000) })], dataDir);
    const written = await Promise.all(Array.from({ length: 6 }, () => writeReviewNotes(service, bindery, PLAN)));
    const document = JSON.parse(fs.readFileSync(written[0]!.json, 'utf8')) as ReviewNotesDocument;
    expect(document.notes[0]!.body).toHaveLength(200_000);
    const folder = path.dirname(written[0]!.json);
    expect(fs.readdirSync(folder).sort()).toEqual([`${PLAN}.json`, `${PLAN}.md`]);
    if (POSIX) {
      expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
      for (const file of [written[0]!.json, written[0]!.markdown]) expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  it('says what to do when the notes cannot be written in the data directory', async () => {
    const dataDir = tempDir();
    // Something in the way of the notes' folder fails as a read-only data directory does, even for root.
    fs.writeFileSync(path.join(dataDir, 'review-notes'), '');
    const [service, bindery] = source([aNote({})], dataDir);
    await expect(writeReviewNotes(service, bindery, PLAN)).rejects.toMatchObject({
      code: 'io_error',
      message: expect.stringMatching(/review notes for it could not be written to .*review-notes \(E[A-Z]+\): make that folder writable/) as unknown,
    });
  });

  it('keeps headings, fences and backticks of the note and its path inside the note\'s own section', () => {
    const body = '# Not a section\n\n```ts\nunclosed fence\n\n## 9. nor this';
    const notes = [aNote({ path: 'src/`odd`.ts', body }), aNote({ id: '01NOTE2', path: null, side: null, fromLine: null, toLine: null, anchorText: null, body: 'second' })];
    const markdown = reviewNotesMarkdown(reviewNotesDocument(PLAN, notes, new Map([['S1', '/sandboxes/app']])));
    const headings = markdown.split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual([`# Review notes for plan ${PLAN}`, '## 1. ``src/`odd`.ts``, line 2 (local/app)', '## 2. The sandbox of local/app']);
    expect(markdown).toContain('> # Not a section\n>\n> ```ts\n> unclosed fence\n>\n> ## 9. nor this\n');
    expect(markdown).toContain('\n> second\n');
  });
});
