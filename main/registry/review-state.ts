/**
 * Queries over the review's state (issue 23): "viewed" marks, each with the key of the change it
 * saw, and the checkpoints a tool run leaves in each sandbox at its start and end.
 */
import type { Database } from 'better-sqlite3';
import type { StoredCheckpoint } from '../../shared/review-dto.ts';

/** A stored viewed mark: the change it saw (`changeKey`) and when. */
export interface StoredMark {
  path: string;
  changeKey: string;
  viewedAt: string;
}


/** Marks `marks` viewed in a sandbox, replacing earlier marks of those paths, in one transaction. */
export function saveMarks(db: Database, sandboxId: string, marks: readonly StoredMark[]): void {
  const insert = db.prepare(
    `INSERT INTO viewed_marks (sandbox_id, path, change_key, viewed_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (sandbox_id, path) DO UPDATE SET change_key = excluded.change_key, viewed_at = excluded.viewed_at`,
  );
  db.transaction(() => {
    for (const mark of marks) insert.run(sandboxId, mark.path, mark.changeKey, mark.viewedAt);
  })();
}

/** Clears the marks of `paths` in a sandbox. */
export function clearMarks(db: Database, sandboxId: string, paths: readonly string[]): void {
  const remove = db.prepare('DELETE FROM viewed_marks WHERE sandbox_id = ? AND path = ?');
  db.transaction(() => {
    for (const rel of paths) remove.run(sandboxId, rel);
  })();
}

/** Every viewed mark of a sandbox, by path. */
export function marksOf(db: Database, sandboxId: string): StoredMark[] {
  return db
    .prepare('SELECT path, change_key AS changeKey, viewed_at AS viewedAt FROM viewed_marks WHERE sandbox_id = ? ORDER BY path')
    .all(sandboxId) as StoredMark[];
}

/** Records (or replaces) one checkpoint. */
export function saveCheckpoint(db: Database, checkpoint: StoredCheckpoint): void {
  db.prepare(
    `INSERT INTO run_checkpoints (run_id, sandbox_id, moment, kind, ref, at) VALUES (@runId, @sandboxId, @moment, @kind, @ref, @at)
     ON CONFLICT (run_id, sandbox_id, moment) DO UPDATE SET kind = excluded.kind, ref = excluded.ref, at = excluded.at`,
  ).run(checkpoint);
}

/** Every checkpoint of a sandbox, oldest first. */
export function checkpointsOf(db: Database, sandboxId: string): StoredCheckpoint[] {
  return db
    .prepare(
      `SELECT run_id AS runId, sandbox_id AS sandboxId, moment, kind, ref, at FROM run_checkpoints
       WHERE sandbox_id = ? ORDER BY at, run_id, moment DESC`,
    )
    .all(sandboxId) as StoredCheckpoint[];
}

/** The start and end checkpoints of one run in one sandbox (either may be missing). */
export function runCheckpoints(db: Database, runId: string, sandboxId: string): { start?: StoredCheckpoint; end?: StoredCheckpoint } {
  const rows = db
    .prepare('SELECT run_id AS runId, sandbox_id AS sandboxId, moment, kind, ref, at FROM run_checkpoints WHERE run_id = ? AND sandbox_id = ?')
    .all(runId, sandboxId) as StoredCheckpoint[];
  return { start: rows.find((r) => r.moment === 'start'), end: rows.find((r) => r.moment === 'end') };
}

/** Forgets a sandbox's checkpoints (a discard removes their refs and files, or keeps them in its trash entry). */
export function forgetCheckpoints(db: Database, sandboxId: string): void {
  db.prepare('DELETE FROM run_checkpoints WHERE sandbox_id = ?').run(sandboxId);
}

/** Records checkpoints again (a restore from the trash brings back those its discard kept). */
export function restoreCheckpoints(db: Database, checkpoints: readonly StoredCheckpoint[]): void {
  for (const checkpoint of checkpoints) saveCheckpoint(db, checkpoint);
}
