/**
 * Migration 5: the review's own records (issue 23). Notes a person leaves for the tool, anchored
 * to lines with the text they were written on; "viewed" marks with the identity of the change
 * they saw; and per-run checkpoints of each sandbox (a private commit for a worktree, a manifest
 * for a copy) so one run's changes can be shown alone.
 */
import type { Migration } from './migration.ts';

export const migration005: Migration = {
  version: 5,
  name: 'review notes, viewed marks and run checkpoints',
  up(db) {
    db.exec(`
      CREATE TABLE review_notes (
        id TEXT PRIMARY KEY,
        plan_id TEXT NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
        sandbox_id TEXT REFERENCES sandboxes (id) ON DELETE CASCADE,
        path TEXT,
        side TEXT CHECK (side IN ('old', 'new')),
        from_line INTEGER CHECK (from_line >= 1),
        to_line INTEGER CHECK (to_line >= from_line),
        anchor_text TEXT,
        body TEXT NOT NULL CHECK (length(body) > 0),
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        resolved_at TEXT,
        CHECK (path IS NULL OR sandbox_id IS NOT NULL),
        CHECK ((side IS NULL) = (from_line IS NULL) AND (from_line IS NULL) = (to_line IS NULL)),
        CHECK (side IS NULL OR path IS NOT NULL)
      ) STRICT;
      CREATE INDEX review_notes_by_plan ON review_notes (plan_id, status);

      CREATE TABLE viewed_marks (
        sandbox_id TEXT NOT NULL REFERENCES sandboxes (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        change_key TEXT NOT NULL,
        viewed_at TEXT NOT NULL,
        PRIMARY KEY (sandbox_id, path)
      ) STRICT;

      CREATE TABLE run_checkpoints (
        run_id TEXT NOT NULL,
        sandbox_id TEXT NOT NULL REFERENCES sandboxes (id) ON DELETE CASCADE,
        moment TEXT NOT NULL CHECK (moment IN ('start', 'end')),
        kind TEXT NOT NULL CHECK (kind IN ('commit', 'manifest')),
        ref TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (run_id, sandbox_id, moment)
      ) STRICT;
    `);
  },
};
