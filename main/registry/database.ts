/**
 * The one opener of Bindery's SQLite database: pragmas, version guard, corruption guard,
 * migrations. Every other registry function takes the opened database as first parameter.
 */
import fs from 'node:fs';
import path from 'node:path';
import Sqlite, { type Database, type Statement } from 'better-sqlite3';
import { BinderyError } from '../../shared/errors.ts';
import { LATEST_VERSION, MIGRATIONS } from './migrations/index.ts';
import type { Migration } from './migrations/migration.ts';

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
 * written by a newer Bindery is refused and left untouched; a corrupt one is copied aside and
 * reported, never deleted.
 */
export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): Database {
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version;
  if (fs.existsSync(file)) guardExisting(file, latest);
  fs.mkdirSync(path.dirname(file), { recursive: true });
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
    const copy = copyAside(file);
    throw new BinderyError(
      'database_corrupt',
      `The database ${file} is damaged (${(error as Error).message}). A copy was saved as ${copy}. ` +
        `Move ${file} away to start with an empty registry, or restore it from a backup.`,
      { file, copy },
    );
  } finally {
    probe?.close();
  }
  if (version > latest) {
    throw new BinderyError(
      'database_too_new',
      `The database ${file} was written by a newer Bindery (schema ${version}; this one knows up to ${latest}). ` +
        'It was left untouched: update Bindery, or point --data-dir at another folder.',
      { file, version, supported: latest },
    );
  }
}

class IntegrityCheckFailed extends Error {}

function isCorruption(error: unknown): boolean {
  if (error instanceof IntegrityCheckFailed) return true;
  const code = (error as { code?: string }).code ?? '';
  return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT');
}

function copyAside(file: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const copy = `${file}.corrupt-${stamp}`;
  fs.copyFileSync(file, copy, fs.constants.COPYFILE_EXCL);
  return copy;
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
