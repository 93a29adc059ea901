/** The activity log: plans, commits, undos, discards and restores, with times. */
import type { Database } from 'better-sqlite3';
import type { ActivityItem } from '../../shared/dto.ts';

/** Appends one line. */
export function logActivity(db: Database, entry: Omit<ActivityItem, 'id'>): void {
  db.prepare('INSERT INTO activity (at, kind, plan_id, sandbox_id, message) VALUES (@at, @kind, @planId, @sandboxId, @message)').run(entry);
}

/** The newest lines first, optionally of one plan. */
export function listActivity(db: Database, filter: { planId?: string; limit?: number } = {}): ActivityItem[] {
  const rows = (
    filter.planId
      ? db.prepare('SELECT * FROM activity WHERE plan_id = ? ORDER BY id DESC LIMIT ?').all(filter.planId, filter.limit ?? 200)
      : db.prepare('SELECT * FROM activity ORDER BY id DESC LIMIT ?').all(filter.limit ?? 200)
  ) as Array<{ id: number; at: string; kind: string; plan_id: string | null; sandbox_id: string | null; message: string }>;
  return rows.map((row) => ({ id: row.id, at: row.at, kind: row.kind, planId: row.plan_id, sandboxId: row.sandbox_id, message: row.message }));
}
