/**
 * "Request changes" (issue 23): before each run of a plan's tool, its open review notes are
 * written under the data directory (never in a sandbox, where they would become a change to
 * commit) as JSON in the reference's snake_case style, with a Markdown rendering beside it for
 * agents that read prose. The tool finds them through BINDERY_REVIEW_NOTES(_MD).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
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
  const open = await service.list(planId, { status: 'open' });
  const paths = new Map(bindery.sandboxes.planSandboxes(planId).map((s) => [s.id, s.path]));
  const document = reviewNotesDocument(planId, open, paths);
  const folder = path.join(bindery.dataDir, 'review-notes');
  await fs.mkdir(folder, { recursive: true });
  const json = path.join(folder, `${planId}.json`);
  const markdown = path.join(folder, `${planId}.md`);
  await writeAtomically(json, `${JSON.stringify(document, null, 2)}\n`);
  await writeAtomically(markdown, reviewNotesMarkdown(document));
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
    if (note.sandbox_path) parts.push(`Sandbox: \`${note.sandbox_path}\``, '');
    if (note.anchor_text !== null) {
      const side = note.side === 'old' ? 'the original (before your changes)' : 'your version';
      parts.push(`Written on these lines of ${side}${note.outdated ? ' (they have changed since)' : ''}:`, '', fence(note.anchor_text), '');
    }
    parts.push(note.body, '');
  });
  return parts.join('\n');
}

function where(note: HandedNote): string {
  if (note.path === null) return note.resource === null ? 'The whole plan' : `The sandbox of ${note.resource}`;
  const lines = note.from_line === null ? '' : note.from_line === note.to_line ? `, line ${note.from_line}` : `, lines ${note.from_line}-${note.to_line}`;
  return `\`${note.path}\`${lines}${note.resource === null ? '' : ` (${note.resource})`}`;
}

/** A fenced block that the text itself cannot close. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}\n${text}\n${marks}`;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, text);
  await fs.rename(temp, file);
}
