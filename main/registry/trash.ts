/** Queries over the trash of discarded sandboxes. */
import type { Database } from 'better-sqlite3';
import type { SandboxStrategy } from '../../shared/model.ts';
import type { ChangeCountsInfo, TrashItem } from '../../shared/dto.ts';

interface TrashRow {
  id: string;
  sandbox_id: string;
  plan_id: string;
  resource_name: string;
  original_path: string;
  sandbox_path: string;
  strategy: SandboxStrategy;
  trash_path: string;
  counts: string;
  created_at: string;
  expires_at: string;
  restored_at: string | null;
  purged_at: string | null;
}

function toEntry(row: TrashRow): TrashItem {
  return {
    id: row.id,
    sandboxId: row.sandbox_id,
    planId: row.plan_id,
    resourceName: row.resource_name,
    originalPath: row.original_path,
    sandboxPath: row.sandbox_path,
    strategy: row.strategy,
    trashPath: row.trash_path,
    counts: JSON.parse(row.counts) as ChangeCountsInfo,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    restoredAt: row.restored_at,
  };
}

/** Records a trash entry. */
export function insertTrash(db: Database, entry: TrashItem): void {
  db.prepare(
    `INSERT INTO trash (id, sandbox_id, plan_id, resource_name, original_path, sandbox_path, strategy, trash_path, counts,
       created_at, expires_at, restored_at)
     VALUES (@id, @sandboxId, @planId, @resourceName, @originalPath, @sandboxPath, @strategy, @trashPath, @counts,
       @createdAt, @expiresAt, @restoredAt)`,
  ).run({ ...entry, counts: JSON.stringify(entry.counts) });
}

/** Entries still in the trash (not restored, not purged), newest first. */
export function listTrash(db: Database): TrashItem[] {
  return (
    db.prepare('SELECT * FROM trash WHERE restored_at IS NULL AND purged_at IS NULL ORDER BY created_at DESC, id DESC').all() as TrashRow[]
  ).map(toEntry);
}

/** One entry still in the trash. */
export function getTrash(db: Database, id: string): TrashItem | undefined {
  const row = db.prepare('SELECT * FROM trash WHERE id = ? AND restored_at IS NULL AND purged_at IS NULL').get(id) as TrashRow | undefined;
  return row && toEntry(row);
}

/** Marks an entry restored. */
export function markTrashRestored(db: Database, id: string, at: string): void {
  db.prepare('UPDATE trash SET restored_at = ? WHERE id = ?').run(at, id);
}

/** Marks an entry purged (its files are gone). */
export function markTrashPurged(db: Database, id: string, at: string): void {
  db.prepare('UPDATE trash SET purged_at = ? WHERE id = ?').run(at, id);
}

/**
 * The journal transactions of commits that no undo can reach any more: commits a discard forgot
 * (see forgetCommittedStates) whose trash entry is gone, purged or never made, so no restore can
 * make them the sandbox's own again. Their backups serve nothing.
 */
export function unservedCommitTransactions(db: Database): string[] {
  const rows = db
    .prepare(
      `SELECT c.transaction_id AS id FROM sandbox_commits c WHERE c.forgotten_at IS NOT NULL AND NOT EXISTS (
         SELECT 1 FROM trash t WHERE t.sandbox_id = c.sandbox_id AND t.created_at = c.forgotten_at AND t.restored_at IS NULL AND t.purged_at IS NULL)`,
    )
    .all() as Array<{ id: string }>;
  return rows.map((row) => row.id);
}

/** Whether the commit an undo of this sandbox would take was made before a discard (null when there is none). */
export function lastCommitForgotten(db: Database, sandboxId: string): boolean | null {
  const row = db
    .prepare('SELECT forgotten_at FROM sandbox_commits WHERE sandbox_id = ? AND undone_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1')
    .get(sandboxId) as { forgotten_at: string | null } | undefined;
  return row ? row.forgotten_at !== null : null;
}
