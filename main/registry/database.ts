/**
 * The one opener of Bindery's SQLite database: pragmas, version guard, corruption guard,
 * migrations. Every other registry function takes the opened database as first parameter.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import Sqlite, { type Database, type Statement } from 'better-sqlite3';
import { BinderyError } from '../../shared/errors.ts';
import { LATEST_VERSION, MIGRATIONS } from './migrations/index.ts';
import type { Migration } from './migrations/migration.ts';
import { copyAsideOnce, headerVersion, refuseEmptyBesideData, tooNew, unwritableDataDir } from './database-guard.ts';

/** The database file name inside the data directory. */
export const DATABASE_FILE = 'bindery.db';

const BUSY_TIMEOUT_MS = 5000;

let nativeBinding: string | undefined = process.env.BINDERY_SQLITE_BINDING || undefined;

/**
 * Points better-sqlite3 at a native addon built for another ABI (Electron's), leaving the Node
 * build in node_modules for the CLI and tests.
 */
export function useNativeBinding(file: string | undefined): void {
  nativeBinding = file;
}

function connect(file: string, options: Sqlite.Options = {}): Database {
  return new Sqlite(file, nativeBinding ? { ...options, nativeBinding } : options);
}

/**
 * Opens (creating if needed) the database at `file` and brings its schema up to date. A database
 * written by a newer Bindery is refused and left untouched; a corrupt one is copied aside (once)
 * and reported, never deleted; an empty one with other data beside it is refused; a data directory
 * Bindery cannot write to is named with what to do.
 */
export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): Database {
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version;
  const dir = path.dirname(file);
  try {
    if (fs.existsSync(file)) guardExisting(file, latest);
    fs.mkdirSync(dir, { recursive: true });
    const db = connect(file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      migrate(db, migrations);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  } catch (error) {
    throw unwritableDataDir(dir, error) ?? error;
  }
}

/** Runs each pending migration in its own transaction, which also sets `user_version`. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): void {
  const current = schemaVersion(db);
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      migration.up(db);
      db.pragma(`user_version = ${Math.trunc(migration.version)}`);
    }).immediate();
  }
}

/** The schema version recorded in the database. */
export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * A counter that changes whenever another connection commits: the cheap way for the app to see
 * what the CLI did.
 */
export function dataVersion(db: Database): number {
  return db.pragma('data_version', { simple: true }) as number;
}

function guardExisting(file: string, latest: number): void {
  if (fs.statSync(file).size === 0) return refuseEmptyBesideData(file);
  // The header tells the version without opening: even a read-only connection makes -wal and -shm files.
  const stamped = headerVersion(file);
  if (stamped !== null && stamped > latest) throw tooNew(file, stamped, latest);
  let version: number;
  let probe: Database | undefined;
  try {
    probe = connect(file, { readonly: true, fileMustExist: true });
    probe.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    version = probe.pragma('user_version', { simple: true }) as number;
    const check = probe.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new IntegrityCheckFailed(String(check));
  } catch (error) {
    if (error instanceof BinderyError) throw error;
    if (!isCorruption(error)) throw error;
    const { copy, fresh } = copyAsideOnce(file);
    throw new BinderyError(
      'database_corrupt',
      `The database ${file} is damaged (${(error as Error).message}). ${fresh ? 'A copy was saved as' : 'Its copy was saved earlier as'} ${copy}. ` +
        `Move ${file} away to start with an empty registry, or restore it from a backup.`,
      { file, copy },
    );
  } finally {
    probe?.close();
  }
  // A newer version recorded only in the -wal (not yet in the file itself) is seen once opened.
  if (version > latest) throw tooNew(file, version, latest);
}

class IntegrityCheckFailed extends Error {}

function isCorruption(error: unknown): boolean {
  if (error instanceof IntegrityCheckFailed) return true;
  const code = (error as { code?: string }).code ?? '';
  return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT');
}

export { LATEST_VERSION };

const statements = new WeakMap<Database, Map<string, Statement>>();

/** The prepared statement of `sql` on `db`, compiled once: preparing costs many times a lookup. */
export function statement(db: Database, sql: string): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}

const flushes = new WeakMap<Database, Promise<void>>();

/**
 * Runs `work` in one transaction that commits without waiting for the disk, and flushes the
 * write-ahead log right after on libuv's thread pool, so the caller goes on while the disk works.
 * The commit is atomic and consistent either way (WAL with `synchronous=NORMAL`); only a power cut
 * in the milliseconds before the flush lands can take it back. That is for rows worth no more than
 * the files they describe, when those files are themselves left to the kernel's writeback for
 * seconds: a sandbox's rows beside the copy or checkout they record. Every other commit still
 * waits for the disk, and the next such commit flushes this one too. Inside a transaction already
 * open, `work` simply joins it.
 */
export function commitFlushingLater<T>(db: Database, work: () => T): T {
  if (db.inTransaction) return work();
  const level = db.pragma('synchronous', { simple: true }) as number;
  db.pragma('synchronous = NORMAL');
  let result: T;
  try {
    result = db.transaction(work)();
  } finally {
    db.pragma(`synchronous = ${level}`);
  }
  const previous = flushes.get(db) ?? Promise.resolve();
  const flush = previous.catch(() => undefined).then(() => flushLog(`${db.name}-wal`));
  // The commit has already returned: a failed flush is reported, and surfaces through `flushed`.
  flush.catch((error: Error) => process.emitWarning(`Bindery could not flush its database log ${db.name}-wal: ${error.message}`));
  flushes.set(db, flush);
  return result;
}

/** Settles once the flushes `commitFlushingLater` started on `db` have landed (rejects with the last one's failure). */
export function flushed(db: Database): Promise<void> {
  return flushes.get(db) ?? Promise.resolve();
}

/**
 * Flushes the data of `file` (a database's write-ahead log); a log a checkpoint removed meanwhile
 * needs none. Opened for writing, as Windows flushes only such handles.
 */
async function flushLog(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r+').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!handle) return;
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
