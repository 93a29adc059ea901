/** The shape of one numbered schema migration. */
import type { Database } from 'better-sqlite3';

/** A schema step; `up` runs inside a transaction that also sets `user_version`. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}
