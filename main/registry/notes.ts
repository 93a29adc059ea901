/** Queries over review notes (issue 23): what a person tells the tool, anchored to a plan, sandbox, file or lines. */
import type { Database } from 'better-sqlite3';
import type { NoteSide, NoteStatus, ReviewNote } from '../../shared/review-dto.ts';
import { statement } from './database.ts';

/** A note as stored: everything but `outdated`, which is computed against the files when listed. */
export type StoredNote = Omit<ReviewNote, 'outdated'>;

interface NoteRow {
  id: string;
  plan_id: string;
  sandbox_id: string | null;
  resource_name: string | null;
  path: string | null;
  side: NoteSide | null;
  from_line: number | null;
  to_line: number | null;
  anchor_text: string | null;
  body: string;
  status: NoteStatus;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
}

// The resource name comes from the sandbox row, so a note always shows the name the plan used.
const SELECT = 'SELECT n.*, s.resource_name FROM review_notes n LEFT JOIN sandboxes s ON s.id = n.sandbox_id';

function toNote(row: NoteRow): StoredNote {
  return {
    id: row.id,
    planId: row.plan_id,
    sandboxId: row.sandbox_id,
    resourceName: row.resource_name,
    path: row.path,
    side: row.side,
    fromLine: row.from_line,
    toLine: row.to_line,
    anchorText: row.anchor_text,
    body: row.body,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    resolvedAt: row.resolved_at,
  };
}

/** Stores a new note (its resource name is read from the sandbox, not stored). */
export function insertNote(db: Database, note: StoredNote): void {
  const { resourceName: _shown, ...row } = note;
  statement(
    db,
    `INSERT INTO review_notes (id, plan_id, sandbox_id, path, side, from_line, to_line, anchor_text, body, status, created_at, updated_at, resolved_at)
     VALUES (@id, @planId, @sandboxId, @path, @side, @fromLine, @toLine, @anchorText, @body, @status, @createdAt, @updatedAt, @resolvedAt)`,
  ).run(row);
}

/** One note by id, or undefined. */
export function getNote(db: Database, id: string): StoredNote | undefined {
  const row = statement(db, `${SELECT} WHERE n.id = ?`).get(id) as NoteRow | undefined;
  return row && toNote(row);
}

/** Notes whose id starts with `prefix` (at most `limit`), for short references. */
export function notesWithIdPrefix(db: Database, prefix: string, limit = 2): StoredNote[] {
  const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  return (statement(db, `${SELECT} WHERE n.id LIKE ? ESCAPE '\\' ORDER BY n.id LIMIT ?`).all(`${escaped}%`, limit) as NoteRow[]).map(toNote);
}

/** A plan's notes, oldest first; optionally one sandbox's, or one status. */
export function planNotes(db: Database, planId: string, filter: { sandboxId?: string; status?: NoteStatus } = {}): StoredNote[] {
  const rows = statement(
    db,
    `${SELECT} WHERE n.plan_id = @planId AND (@sandboxId IS NULL OR n.sandbox_id = @sandboxId) AND (@status IS NULL OR n.status = @status)
     ORDER BY n.created_at, n.id`,
  ).all({ planId, sandboxId: filter.sandboxId ?? null, status: filter.status ?? null }) as NoteRow[];
  return rows.map(toNote);
}

/** Sets a note's body, status and times; returns whether the note exists. */
export function saveNoteEdit(
  db: Database,
  id: string,
  edit: { body: string; status: NoteStatus; updatedAt: string; resolvedAt: string | null },
): boolean {
  const result = statement(
    db,
    'UPDATE review_notes SET body = @body, status = @status, updated_at = @updatedAt, resolved_at = @resolvedAt WHERE id = @id',
  ).run({ id, ...edit });
  return result.changes > 0;
}

/** Deletes a note; returns whether it existed. */
export function deleteNote(db: Database, id: string): boolean {
  return statement(db, 'DELETE FROM review_notes WHERE id = ?').run(id).changes > 0;
}
