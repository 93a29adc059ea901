/** Queries over sandboxes: one row per (plan, resource), with how it was provisioned. */
import type { Database } from 'better-sqlite3';
import { statement } from './database.ts';
import type { AccessMode, SandboxStrategy } from '../../shared/model.ts';
import type { CopyMethod, SandboxInfo, SandboxStatusValue } from '../../shared/dto.ts';

interface SandboxRow {
  id: string;
  plan_id: string;
  resource_id: string;
  resource_name: string;
  slot_names: string;
  original_path: string;
  requested_strategy: SandboxStrategy;
  strategy: SandboxStrategy;
  copy_method: CopyMethod | null;
  fallback_reason: string | null;
  handler: string | null;
  handler_failure: string | null;
  access: AccessMode;
  path: string;
  base_ref: string | null;
  base_commit: string | null;
  ignored_files: string;
  ignored_count: number;
  status: SandboxStatusValue;
  error: string | null;
  created_at: string;
  updated_at: string;
}

function toRecord(row: SandboxRow): SandboxInfo {
  return {
    id: row.id,
    planId: row.plan_id,
    resourceId: row.resource_id,
    resourceName: row.resource_name,
    slotNames: JSON.parse(row.slot_names) as string[],
    originalPath: row.original_path,
    requestedStrategy: row.requested_strategy,
    strategy: row.strategy,
    copyMethod: row.copy_method,
    fallbackReason: row.fallback_reason,
    handler: row.handler,
    handlerFailure: row.handler_failure,
    access: row.access,
    path: row.path,
    baseRef: row.base_ref,
    baseCommit: row.base_commit,
    ignoredFiles: JSON.parse(row.ignored_files) as string[],
    ignoredCount: row.ignored_count,
    status: row.status,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Inserts a sandbox row, or replaces every mutable field of an existing one (same id). */
export function saveSandbox(db: Database, record: SandboxInfo): void {
  statement(
    db,
    `INSERT INTO sandboxes (id, plan_id, resource_id, resource_name, slot_names, original_path, requested_strategy, strategy,
       copy_method, fallback_reason, handler, handler_failure, access, path, base_ref, base_commit, ignored_files, ignored_count,
       status, error, created_at, updated_at)
     VALUES (@id, @planId, @resourceId, @resourceName, @slotNames, @originalPath, @requestedStrategy, @strategy,
       @copyMethod, @fallbackReason, @handler, @handlerFailure, @access, @path, @baseRef, @baseCommit, @ignoredFiles, @ignoredCount,
       @status, @error, @createdAt, @updatedAt)
     ON CONFLICT (id) DO UPDATE SET slot_names = excluded.slot_names, strategy = excluded.strategy, copy_method = excluded.copy_method,
       fallback_reason = excluded.fallback_reason, handler = excluded.handler, handler_failure = excluded.handler_failure,
       access = excluded.access, path = excluded.path, base_ref = excluded.base_ref, base_commit = excluded.base_commit,
       ignored_files = excluded.ignored_files, ignored_count = excluded.ignored_count, status = excluded.status,
       error = excluded.error, updated_at = excluded.updated_at`,
  ).run({ ...record, slotNames: JSON.stringify(record.slotNames), ignoredFiles: JSON.stringify(record.ignoredFiles) });
}

/** One sandbox by id. */
export function getSandbox(db: Database, id: string): SandboxInfo | undefined {
  const row = statement(db, 'SELECT * FROM sandboxes WHERE id = ?').get(id) as SandboxRow | undefined;
  return row && toRecord(row);
}

/** The sandbox of a resource in a plan, if any. */
export function findSandbox(db: Database, planId: string, resourceId: string): SandboxInfo | undefined {
  const row = statement(db, 'SELECT * FROM sandboxes WHERE plan_id = ? AND resource_id = ?').get(planId, resourceId) as SandboxRow | undefined;
  return row && toRecord(row);
}

/** A plan's sandboxes in creation order. */
export function planSandboxes(db: Database, planId: string): SandboxInfo[] {
  return (statement(db, 'SELECT * FROM sandboxes WHERE plan_id = ? ORDER BY created_at, id').all(planId) as SandboxRow[]).map(toRecord);
}

/** Every sandbox in one of the statuses (recovery looks at the live ones). */
export function sandboxesWithStatus(db: Database, statuses: readonly SandboxStatusValue[]): SandboxInfo[] {
  if (statuses.length === 0) return [];
  const marks = statuses.map(() => '?').join(', ');
  return (statement(db, `SELECT * FROM sandboxes WHERE status IN (${marks}) ORDER BY created_at, id`).all(...statuses) as SandboxRow[]).map(toRecord);
}

/** True when some sandbox row owns this directory. */
export function isRegisteredPath(db: Database, dir: string): boolean {
  return statement(db, 'SELECT 1 FROM sandboxes WHERE path = ? LIMIT 1').get(dir) !== undefined;
}

/** Sets a sandbox's status (and error), keeping everything else. */
export function setSandboxStatus(db: Database, id: string, status: SandboxStatusValue, at: string, error: string | null = null): void {
  statement(db, 'UPDATE sandboxes SET status = ?, error = ?, updated_at = ? WHERE id = ?').run(status, error, at, id);
}

/** Moves a sandbox's git base forward or back (after a commit or an undo). */
export function setSandboxBase(db: Database, id: string, baseCommit: string | null, at: string): void {
  statement(db, 'UPDATE sandboxes SET base_commit = ?, updated_at = ? WHERE id = ?').run(baseCommit, at, id);
}

/** Deletes a sandbox row (only for a provision that failed and left nothing behind). */
export function deleteSandbox(db: Database, id: string): void {
  statement(db, 'DELETE FROM sandboxes WHERE id = ?').run(id);
}
