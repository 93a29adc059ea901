/** Queries over commits of sandboxes into their originals, for undo and history. */
import type { Database } from 'better-sqlite3';
import type { CommitInfo, CommittedState } from '../../shared/dto.ts';

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
  forgotten_at: string | null;
}

function toCommit(row: CommitRow): CommitInfo {
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
 * not UTF-8 survive (see sandbox/fs/paths.ts).
 */
export function insertCommit(db: Database, commit: CommitInfo, committed: Record<string, CommittedState> = {}): void {
  db.prepare(
    `INSERT INTO sandbox_commits (id, sandbox_id, plan_id, transaction_id, written, deleted, git_commit, undone_at, created_at, committed)
     VALUES (@id, @sandboxId, @planId, @transactionId, @written, @deleted, @gitCommit, @undoneAt, @createdAt, @committed)`,
  ).run({ ...commit, written: JSON.stringify(commit.written), deleted: JSON.stringify(commit.deleted), committed: JSON.stringify(committed) });
}

/** Parsed committed states per database and sandbox, with the fingerprint of the commits they came from. */
/** The commits that count as the sandbox's own. */
const OWN = 'undone_at IS NULL AND forgotten_at IS NULL';

const parsedStates = new WeakMap<Database, Map<string, { fingerprint: string; states: ReadonlyMap<string, CommittedState> }>>();

/**
 * What the sandbox's own commits (not undone, not from before a discard) left at each path, the
 * latest recorded winning. Parsed again only when the set of those commits changed (their row ids
 * tell: a row's states never change), since change detection asks at every look and a big
 * commit's states take long to parse. Counts would not do: a restore can bring them back to
 * numbers seen before, over other rows.
 */
export function committedStates(db: Database, sandboxId: string): ReadonlyMap<string, CommittedState> {
  const { live } = db
    .prepare(`SELECT group_concat(rowid) AS live FROM (SELECT rowid FROM sandbox_commits WHERE sandbox_id = ? AND ${OWN} ORDER BY rowid)`)
    .get(sandboxId) as { live: string | null };
  const fingerprint = live ?? '';
  let bySandbox = parsedStates.get(db);
  if (!bySandbox) parsedStates.set(db, (bySandbox = new Map()));
  const known = bySandbox.get(sandboxId);
  if (known?.fingerprint === fingerprint) return known.states;
  const rows = db
    .prepare(`SELECT committed FROM sandbox_commits WHERE sandbox_id = ? AND ${OWN} ORDER BY rowid`)
    .all(sandboxId) as Array<{ committed: string }>;
  const states = new Map<string, CommittedState>();
  for (const row of rows) for (const [rel, state] of Object.entries(JSON.parse(row.committed) as Record<string, CommittedState>)) states.set(rel, state);
  bySandbox.set(sandboxId, { fingerprint, states });
  return states;
}

/**
 * A discarded sandbox's commits stop counting as its own: provisioned again, it starts from the
 * original as it is then, and what it committed before is just part of that. `at` names the
 * discard (its trash entry's time, when it has one; see rememberCommittedStates).
 */
export function forgetCommittedStates(db: Database, sandboxId: string, at: string): void {
  db.prepare('UPDATE sandbox_commits SET forgotten_at = ? WHERE sandbox_id = ? AND forgotten_at IS NULL').run(at, sandboxId);
}

/**
 * A sandbox restored from the trash is again the one that made the commits its discard (`at`)
 * forgot: they count as its own again. Those of a later run in its place stay forgotten.
 */
export function rememberCommittedStates(db: Database, sandboxId: string, at: string): void {
  db.prepare('UPDATE sandbox_commits SET forgotten_at = NULL WHERE sandbox_id = ? AND forgotten_at = ?').run(sandboxId, at);
}

/** The newest commit of a sandbox that has not been undone. */
export function lastCommit(db: Database, sandboxId: string): CommitInfo | undefined {
  const row = db
    .prepare('SELECT * FROM sandbox_commits WHERE sandbox_id = ? AND undone_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1')
    .get(sandboxId) as CommitRow | undefined;
  return row && toCommit(row);
}

/** The commit made by a journal transaction, if Bindery recorded one (a commit interrupted before it returned has none). */
export function commitOfTransaction(db: Database, transactionId: string): CommitInfo | undefined {
  const row = db.prepare('SELECT * FROM sandbox_commits WHERE transaction_id = ?').get(transactionId) as CommitRow | undefined;
  return row && toCommit(row);
}

/** Every commit of a plan, oldest first. */
export function planCommits(db: Database, planId: string): CommitInfo[] {
  return (db.prepare('SELECT * FROM sandbox_commits WHERE plan_id = ? ORDER BY created_at, id').all(planId) as CommitRow[]).map(toCommit);
}

/** Marks a commit as undone. */
export function markCommitUndone(db: Database, id: string, at: string): void {
  db.prepare('UPDATE sandbox_commits SET undone_at = ? WHERE id = ?').run(at, id);
}
