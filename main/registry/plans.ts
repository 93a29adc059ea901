/** Queries over plans and their status history. */
import type { Database } from 'better-sqlite3';
import type { PlanHistoryEntry, PlanInfo, PlanOrigin, PlanStatusValue } from '../../shared/dto.ts';
import type { BoundResource } from '../../shared/model.ts';

interface PlanRow {
  id: string;
  tool_id: string;
  tool_name: string;
  project_id: string;
  project_name: string;
  params: string;
  status: PlanStatusValue;
  error: string | null;
  created_by: PlanOrigin;
  review_requested_at: string | null;
  created_at: string;
  updated_at: string;
}

function toPlan(row: PlanRow): PlanInfo {
  return {
    id: row.id,
    toolId: row.tool_id,
    toolName: row.tool_name,
    projectId: row.project_id,
    projectName: row.project_name,
    params: JSON.parse(row.params) as Record<string, string>,
    status: row.status,
    error: row.error,
    createdBy: row.created_by,
    reviewRequestedAt: row.review_requested_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A new plan's fields; who made it defaults to a person, and no review was asked for yet. */
export type NewPlan = Omit<PlanInfo, 'createdBy' | 'reviewRequestedAt'> & { createdBy?: PlanOrigin };

/** Inserts a plan and its first status entry. */
export function insertPlan(db: Database, plan: NewPlan): void {
  db.prepare(
    `INSERT INTO plans (id, tool_id, tool_name, project_id, project_name, params, status, error, created_by, created_at, updated_at)
     VALUES (@id, @toolId, @toolName, @projectId, @projectName, @params, @status, @error, @createdBy, @createdAt, @updatedAt)`,
  ).run({ ...plan, createdBy: plan.createdBy ?? 'person', params: JSON.stringify(plan.params) });
  insertStatus(db, { planId: plan.id, status: plan.status, detail: 'created', at: plan.createdAt });
}

/** One plan by id. */
export function getPlan(db: Database, id: string): PlanInfo | undefined {
  const row = db.prepare('SELECT * FROM plans WHERE id = ?').get(id) as PlanRow | undefined;
  return row && toPlan(row);
}

/** Plans, newest first, optionally only those in one status. */
export function listPlans(db: Database, filter: { status?: PlanStatusValue; limit?: number } = {}): PlanInfo[] {
  const limit = filter.limit ?? -1;
  const rows = filter.status
    ? db.prepare('SELECT * FROM plans WHERE status = ? ORDER BY created_at DESC, id DESC LIMIT ?').all(filter.status, limit)
    : db.prepare('SELECT * FROM plans ORDER BY created_at DESC, id DESC LIMIT ?').all(limit);
  return (rows as PlanRow[]).map(toPlan);
}

/** Moves a plan to a status and records the transition (a no-op when nothing changes). */
export function setPlanStatus(db: Database, id: string, status: PlanStatusValue, detail: string, at: string, error: string | null = null): void {
  const current = getPlan(db, id);
  if (!current || (current.status === status && current.error === error)) return;
  db.prepare('UPDATE plans SET status = ?, error = ?, updated_at = ? WHERE id = ?').run(status, error, at, id);
  insertStatus(db, { planId: id, status, detail, at });
}

function insertStatus(db: Database, entry: PlanHistoryEntry): void {
  db.prepare('INSERT INTO plan_status_history (plan_id, status, detail, at) VALUES (@planId, @status, @detail, @at)').run(entry);
}

/** Every status a plan went through, oldest first. */
export function planHistory(db: Database, planId: string): PlanHistoryEntry[] {
  return db
    .prepare('SELECT plan_id AS planId, status, detail, at FROM plan_status_history WHERE plan_id = ? ORDER BY id')
    .all(planId) as PlanHistoryEntry[];
}

/** Records the slots a plan bound and where their sandboxes are (BoundResource per slot). */
export function setPlanBindings(db: Database, id: string, bound: BoundResource[]): void {
  db.prepare('UPDATE plans SET bound = ? WHERE id = ?').run(JSON.stringify(bound), id);
}

/** The bound slots of a plan, in slot order. */
export function planBindings(db: Database, id: string): BoundResource[] {
  const text = db.prepare('SELECT bound FROM plans WHERE id = ?').pluck().get(id) as string | undefined;
  return text ? (JSON.parse(text) as BoundResource[]) : [];
}

/** Plans whose id starts with `prefix` (at most `limit`), for short ids on the command line. */
export function plansWithIdPrefix(db: Database, prefix: string, limit = 2): PlanInfo[] {
  const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  return (db.prepare("SELECT * FROM plans WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT ?").all(`${escaped}%`, limit) as PlanRow[]).map(toPlan);
}

/** Records that an agent said the plan's work is ready for review (the app shows it). */
export function setReviewRequested(db: Database, id: string, at: string): void {
  db.prepare('UPDATE plans SET review_requested_at = ?, updated_at = ? WHERE id = ?').run(at, at, id);
}
