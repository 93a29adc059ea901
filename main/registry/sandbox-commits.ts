/** Queries over commits of sandboxes into their originals, for undo and history. */
import type { Database } from 'better-sqlite3';
import type { CommitRecord, CommittedState } from '../sandbox/model.ts';

interface CommitRow {
  id: string;
  sandbox_id: string;
  plan_id: string;
  transaction_id: string;
  written: string;
  deleted: string;
  git_commit: string | null;
  undone_at: string | null;
  created_at: string;
  committed: string;
}

function toCommit(row: CommitRow): CommitRecord {
  return {
    id: row.id,
    sandboxId: row.sandbox_id,
    planId: row.plan_id,
    transactionId: row.transaction_id,
    written: JSON.parse(row.written) as string[],
    deleted: JSON.parse(row.deleted) as string[],
    gitCommit: row.git_commit,
    undoneAt: row.undone_at,
    createdAt: row.created_at,
  };
}

/**
 * Records a commit, with what it left at each path when known. Paths are JSON so names that are
 * not UTF-8 survive (see sandbox/fs-path.ts).
 */
export function insertCommit(db: Database, commit: CommitRecord, committed: Record<string, CommittedState> = {}): void {
  db.prepare(
    `INSERT INTO sandbox_commits (id, sandbox_id, plan_id, transaction_id, written, deleted, git_commit, undone_at, created_at, committed)
     VALUES (@id, @sandboxId, @planId, @transactionId, @written, @deleted, @gitCommit, @undoneAt, @createdAt, @committed)`,
  ).run({ ...commit, written: JSON.stringify(commit.written), deleted: JSON.stringify(commit.deleted), committed: JSON.stringify(committed) });
}

/** What the sandbox's commits that are not undone left at each path, the newest winning. */
export function committedStates(db: Database, sandboxId: string): Map<string, CommittedState> {
  const rows = db.prepare('SELECT committed FROM sandbox_commits WHERE sandbox_id = ? AND undone_at IS NULL ORDER BY created_at, id').all(sandboxId) as Array<{ committed: string }>;
  const states = new Map<string, CommittedState>();
  for (const row of rows) for (const [rel, state] of Object.entries(JSON.parse(row.committed) as Record<string, CommittedState>)) states.set(rel, state);
  return states;
}

/** The newest commit of a sandbox that has not been undone. */
export function lastCommit(db: Database, sandboxId: string): CommitRecord | undefined {
  const row = db
    .prepare('SELECT * FROM sandbox_commits WHERE sandbox_id = ? AND undone_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1')
    .get(sandboxId) as CommitRow | undefined;
  return row && toCommit(row);
}

/** The commit made by a journal transaction, if Bindery recorded one (a commit interrupted before it returned has none). */
export function commitOfTransaction(db: Database, transactionId: string): CommitRecord | undefined {
  const row = db.prepare('SELECT * FROM sandbox_commits WHERE transaction_id = ?').get(transactionId) as CommitRow | undefined;
  return row && toCommit(row);
}

/** Every commit of a plan, oldest first. */
export function planCommits(db: Database, planId: string): CommitRecord[] {
  return (db.prepare('SELECT * FROM sandbox_commits WHERE plan_id = ? ORDER BY created_at, id').all(planId) as CommitRow[]).map(toCommit);
}

/** Marks a commit as undone. */
export function markCommitUndone(db: Database, id: string, at: string): void {
  db.prepare('UPDATE sandbox_commits SET undone_at = ? WHERE id = ?').run(at, id);
}
