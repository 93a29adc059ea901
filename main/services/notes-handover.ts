/**
 * "Request changes" (issue 23): before each run of a plan's tool, its open review notes are
 * written under the data directory (never in a sandbox, where they would become a change to
 * commit) as JSON in the reference's snake_case style, with a Markdown rendering beside it for
 * agents that read prose. The tool finds them through BINDERY_REVIEW_NOTES(_MD).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { displayPath } from '../../shared/display-path.ts';
import { BinderyError } from '../../shared/errors.ts';
import type { ReviewNote } from '../../shared/review-dto.ts';
import type { Bindery } from './bindery.ts';
import { notesService, type NotesService } from './notes-service.ts';

/** Where a run's notes were written. */
export interface ReviewNotesFiles {
  json: string;
  markdown: string;
  count: number;
}

/** One note as the tool reads it. */
export interface HandedNote {
  id: string;
  resource: string | null;
  sandbox_path: string | null;
  path: string | null;
  side: ReviewNote['side'];
  from_line: number | null;
  to_line: number | null;
  anchor_text: string | null;
  body: string;
  outdated: boolean;
  created_at: string;
}

/** The JSON document a run receives. */
export interface ReviewNotesDocument {
  plan_id: string;
  notes: HandedNote[];
}

/** The handover a RunService calls before each run (its `reviewNotes` option). */
export function reviewNotesHandover(bindery: Bindery): (planId: string) => Promise<ReviewNotesFiles> {
  const service = notesService(bindery);
  return (planId) => writeReviewNotes(service, bindery, planId);
}

/** Writes the plan's open notes (an empty list when it has none) and returns the files' paths. */
export async function writeReviewNotes(service: NotesService, bindery: Pick<Bindery, 'dataDir' | 'sandboxes'>, planId: string): Promise<ReviewNotesFiles> {
  // Only sandboxes the run works in: a discarded one's folder is gone, and a tool told to fix a
  // file there would write where Bindery no longer looks.
  const paths = new Map(bindery.sandboxes.planSandboxes(planId).filter((s) => s.status === 'ready' || s.status === 'committed').map((s) => [s.id, s.path]));
  const open = (await service.list(planId, { status: 'open' })).filter((n) => n.sandboxId === null || paths.has(n.sandboxId));
  const document = reviewNotesDocument(planId, open, paths);
  const folder = path.join(bindery.dataDir, 'review-notes');
  const json = path.join(folder, `${planId}.json`);
  const markdown = path.join(folder, `${planId}.md`);
  try {
    // The notes quote the person's code and words: for this user's eyes (and tools) only.
    await fs.mkdir(folder, { recursive: true, mode: 0o700 });
    await writeAtomically(json, `${JSON.stringify(document, null, 2)}\n`);
    await writeAtomically(markdown, reviewNotesMarkdown(document));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    // A run reports this as "could not start: ...": the tool never runs without the notes it was asked to read.
    throw new BinderyError(
      'io_error',
      `the review notes for it could not be written to ${folder} (${code}): make that folder writable for you (or free some disk space) and run it again.`,
      { path: folder },
    );
  }
  return { json, markdown, count: open.length };
}

/** The notes in the reference's spelling, each with its sandbox's path so a tool can open the file. */
export function reviewNotesDocument(planId: string, notes: ReviewNote[], sandboxPaths: ReadonlyMap<string, string>): ReviewNotesDocument {
  return {
    plan_id: planId,
    notes: notes.map((n) => ({
      id: n.id,
      resource: n.resourceName,
      sandbox_path: n.sandboxId === null ? null : (sandboxPaths.get(n.sandboxId) ?? null),
      path: n.path,
      side: n.side,
      from_line: n.fromLine,
      to_line: n.toLine,
      anchor_text: n.anchorText,
      body: n.body,
      outdated: n.outdated,
      created_at: n.createdAt,
    })),
  };
}

/** The same notes as prose: one section per note, where it applies, the lines it was written on, what to do. */
export function reviewNotesMarkdown(document: ReviewNotesDocument): string {
  const parts = [`# Review notes for plan ${document.plan_id}`, ''];
  if (document.notes.length === 0) parts.push('No open notes: the reviewer asked for nothing in particular.', '');
  document.notes.forEach((note, index) => {
    parts.push(`## ${index + 1}. ${where(note)}`, '');
    if (note.sandbox_path) parts.push(`Sandbox: ${code(note.sandbox_path)}`, '');
    if (note.anchor_text !== null) {
      const side = note.side === 'old' ? 'the original (before your changes)' : 'your version';
      parts.push(`Written on these lines of ${side}${note.outdated ? ' (they have changed since)' : ''}:`, '', fence(note.anchor_text), '');
    }
    // Quoted, so the person's headings, lists or an unclosed fence stay inside this note's section.
    parts.push(quote(note.body), '');
  });
  return parts.join('\n');
}

function where(note: HandedNote): string {
  if (note.path === null) return note.resource === null ? 'The whole plan' : `The sandbox of ${note.resource}`;
  const lines = note.from_line === null ? '' : note.from_line === note.to_line ? `, line ${note.from_line}` : `, lines ${note.from_line}-${note.to_line}`;
  return `${code(note.path)}${lines}${note.resource === null ? '' : ` (${note.resource})`}`;
}

/** Inline code that a backtick in the text cannot end (CommonMark: a longer run of them, spaced). */
function code(raw: string): string {
  // One line, and undecodable bytes as \xNN: a newline in a name would end the heading.
  const text = displayPath(raw).replace(/\r|\n/g, (c) => (c === '\n' ? '\\n' : '\\r'));
  const marks = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${marks}${pad}${text}${pad}${marks}`;
}

/** A block quote of every line (blank ones too, so the quote does not end early). */
function quote(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

/** A fenced block that the text itself cannot close. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}\n${text}\n${marks}`;
}

/** Whole or not at all, for a tool that reads the file while another run of the plan writes it. */
async function writeAtomically(file: string, text: string): Promise<void> {
  // Unique per call, not per process: two handovers of one plan at once must not share a temp file.
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.writeFile(temp, text, { mode: 0o600, flag: 'wx' });
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
