/**
 * Migration 4: agents through MCP (issue 24). A project may allow agents to commit, undo and
 * discard (off by default: the person decides); a plan records who made it and when an agent said
 * its work was ready for review, so the app can show both.
 */
import type { Migration } from './migration.ts';

export const migration004: Migration = {
  version: 4,
  name: 'agent access',
  up(db) {
    db.exec(`
      ALTER TABLE projects ADD COLUMN agent_may_commit INTEGER NOT NULL DEFAULT 0 CHECK (agent_may_commit IN (0, 1));
      ALTER TABLE plans ADD COLUMN created_by TEXT NOT NULL DEFAULT 'person' CHECK (created_by IN ('person', 'agent'));
      ALTER TABLE plans ADD COLUMN review_requested_at TEXT;
    `);
  },
};
