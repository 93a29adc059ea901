/**
 * Migration 3: what each commit left at each path it wrote or deleted, so change detection can
 * tell a sandbox's own earlier commit in the original from someone else's change there, and when
 * a commit stopped counting as its sandbox's own (the sandbox was discarded).
 */
import type { Migration } from './migration.ts';

export const migration003: Migration = {
  version: 3,
  name: 'committed states',
  up(db) {
    db.exec(`
      ALTER TABLE sandbox_commits ADD COLUMN committed TEXT NOT NULL DEFAULT '{}';
      ALTER TABLE sandbox_commits ADD COLUMN forgotten_at TEXT;
    `);
  },
};
