/**
 * Notices registry writes made by another process (the CLI) so the app refreshes without a
 * restart: SQLite's `data_version` changes whenever another connection commits.
 */
import type { Database } from 'better-sqlite3';
import { dataVersion } from '../registry/database.ts';

/** How often the app looks, about once a second as DESIGN 3.3 asks. */
export const WATCH_INTERVAL_MS = 1000;

/** A running watch; `check()` polls now (tests use it instead of waiting). */
export interface RegistryWatch {
  check(): boolean;
  stop(): void;
}

/** Polls `data_version` and calls `onExternalChange` when another connection committed. */
export function watchRegistry(db: Database, onExternalChange: () => void, intervalMs = WATCH_INTERVAL_MS): RegistryWatch {
  let last = dataVersion(db);
  const check = (): boolean => {
    let current: number;
    try {
      current = dataVersion(db);
    } catch {
      return false; // the database was closed under us; stop() follows
    }
    if (current === last) return false;
    last = current;
    onExternalChange();
    return true;
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
