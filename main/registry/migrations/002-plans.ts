/** Migration 2: plans with their status history, sandboxes, commits, trash and the activity log. */
import type { Migration } from './migration.ts';

export const migration002: Migration = {
  version: 2,
  name: 'plans and sandboxes',
  up(db) {
    db.exec(`
      CREATE TABLE plans (
        id TEXT PRIMARY KEY,
        tool_id TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        project_id TEXT NOT NULL,
        project_name TEXT NOT NULL,
        params TEXT NOT NULL DEFAULT '{}',
        bound TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL CHECK (status IN ('provisioning', 'ready', 'committed', 'partially_committed', 'discarded', 'failed')),
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX plans_by_created ON plans (created_at);

      CREATE TABLE plan_status_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        plan_id TEXT NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
        status TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '',
        at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX plan_status_history_by_plan ON plan_status_history (plan_id, id);

      CREATE TABLE sandboxes (
        id TEXT PRIMARY KEY,
        plan_id TEXT NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
        resource_id TEXT NOT NULL,
        resource_name TEXT NOT NULL,
        slot_names TEXT NOT NULL DEFAULT '[]',
        original_path TEXT NOT NULL,
        requested_strategy TEXT NOT NULL CHECK (requested_strategy IN ('git_worktree', 'copy_on_write', 'none')),
        strategy TEXT NOT NULL CHECK (strategy IN ('git_worktree', 'copy_on_write', 'none')),
        copy_method TEXT CHECK (copy_method IN ('clone', 'copy')),
        fallback_reason TEXT,
        handler TEXT,
        handler_failure TEXT,
        access TEXT NOT NULL CHECK (access IN ('read_only', 'read_write', 'write_only')),
        path TEXT NOT NULL,
        base_ref TEXT,
        base_commit TEXT,
        ignored_files TEXT NOT NULL DEFAULT '[]',
        ignored_count INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL CHECK (status IN ('provisioning', 'ready', 'committed', 'discarded', 'missing', 'failed')),
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (plan_id, resource_id)
      ) STRICT;
      CREATE INDEX sandboxes_by_path ON sandboxes (path);

      CREATE TABLE sandbox_commits (
        id TEXT PRIMARY KEY,
        sandbox_id TEXT NOT NULL REFERENCES sandboxes (id) ON DELETE CASCADE,
        plan_id TEXT NOT NULL,
        transaction_id TEXT NOT NULL,
        written TEXT NOT NULL DEFAULT '[]',
        deleted TEXT NOT NULL DEFAULT '[]',
        git_commit TEXT,
        undone_at TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX sandbox_commits_by_sandbox ON sandbox_commits (sandbox_id, created_at);

      CREATE TABLE trash (
        id TEXT PRIMARY KEY,
        sandbox_id TEXT NOT NULL,
        plan_id TEXT NOT NULL,
        resource_name TEXT NOT NULL,
        original_path TEXT NOT NULL,
        sandbox_path TEXT NOT NULL,
        strategy TEXT NOT NULL,
        trash_path TEXT NOT NULL,
        counts TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        restored_at TEXT,
        purged_at TEXT
      ) STRICT;

      CREATE TABLE activity (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        plan_id TEXT,
        sandbox_id TEXT,
        message TEXT NOT NULL
      ) STRICT;
      CREATE INDEX activity_by_plan ON activity (plan_id, id);
    `);
  },
};
