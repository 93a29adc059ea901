import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BinderyError } from '../../shared/errors.ts';
import { tempDir } from '../testing/fixtures.ts';
import { commitFlushingLater, flushed, LATEST_VERSION, openDatabase, schemaVersion, statement } from './database.ts';
import { listTypes } from './resource-types.ts';
import { MIGRATIONS } from './migrations/index.ts';
import type { Migration } from './migrations/migration.ts';

describe('openDatabase', () => {
  it('creates the schema with the pragmas and seeds the built-in types exactly', () => {
    const file = path.join(tempDir(), 'bindery.db');
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    const builtIns = listTypes(db).map((t) => [t.name, t.sandboxStrategy, t.parentTypes, t.builtIn, t.handler]);
    expect(builtIns).toEqual([
      ['fs-directory', 'copy_on_write', ['git-checkout'], true, 'cleveragents.resource.handlers.fs_directory:FsDirectoryHandler'],
      ['git-checkout', 'git_worktree', [], true, 'cleveragents.resource.handlers.git_checkout:GitCheckoutHandler'],
    ]);
    db.close();
  });

  it('is idempotent: reopening runs no migration twice', () => {
    const file = path.join(tempDir(), 'bindery.db');
    openDatabase(file).close();
    const db = openDatabase(file);
    expect(listTypes(db)).toHaveLength(2);
    db.close();
  });

  it('refuses a database written by a newer version and leaves it byte-identical', () => {
    const file = path.join(tempDir(), 'bindery.db');
    const future = new Sqlite(file);
    future.pragma(`user_version = ${LATEST_VERSION + 5}`);
    future.exec('CREATE TABLE from_the_future (x)');
    future.close();
    const before = fs.readFileSync(file);
    let error: unknown;
    try {
      openDatabase(file);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BinderyError);
    expect((error as BinderyError).code).toBe('database_too_new');
    expect((error as BinderyError).message).toMatch(/newer Bindery.*left untouched/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['bindery.db']);
  });

  it('reports a corrupt database, copies it aside and never deletes it', () => {
    const dir = tempDir();
    const file = path.join(dir, 'bindery.db');
    fs.writeFileSync(file, 'this is not a database'.repeat(200));
    let error: unknown;
    try {
      openDatabase(file);
    } catch (caught) {
      error = caught;
    }
    expect((error as BinderyError).code).toBe('database_corrupt');
    const files = fs.readdirSync(dir).sort();
    expect(files[0]).toBe('bindery.db');
    expect(files[1]).toMatch(/^bindery\.db\.corrupt-/);
    expect(fs.readFileSync(path.join(dir, files[1] as string))).toEqual(fs.readFileSync(file));
  });

  it('copies a damaged database aside once: later starts point at that copy and copy nothing again', () => {
    const dir = tempDir();
    const file = path.join(dir, 'bindery.db');
    fs.writeFileSync(file, 'this is not a database'.repeat(200));
    const messages = [1, 2, 3].map(() => caught(() => openDatabase(file)));
    const copies = fs.readdirSync(dir).filter((name) => name.startsWith('bindery.db.corrupt-'));
    expect(copies).toHaveLength(1);
    expect(messages.map((error) => error.code)).toEqual(['database_corrupt', 'database_corrupt', 'database_corrupt']);
    expect(messages[0]!.message).toContain(`A copy was saved as ${path.join(dir, copies[0]!)}`);
    for (const later of messages.slice(1)) expect(later.message).toContain(`Its copy was saved earlier as ${path.join(dir, copies[0]!)}`);
    // Damaged differently since: that is a new state worth its own copy.
    fs.appendFileSync(file, 'more damage');
    caught(() => openDatabase(file));
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('bindery.db.corrupt-'))).toHaveLength(2);
  });

  it('refuses an empty database file with a -wal journal or a used data folder beside it, and leaves them as they are', () => {
    for (const beside of ['bindery.db-wal', 'journal/01J0000000000000000000000/state-000002.json', 'sandboxes/PLAN/app-1/a.txt']) {
      const dir = tempDir();
      const file = path.join(dir, 'bindery.db');
      fs.writeFileSync(file, '');
      fs.mkdirSync(path.dirname(path.join(dir, beside)), { recursive: true });
      fs.writeFileSync(path.join(dir, beside), 'data');
      const error = caught(() => openDatabase(file));
      expect(error.code, beside).toBe('database_corrupt');
      expect(error.message).toMatch(/is empty \(0 bytes\).*Restore .* from a backup/);
      expect(error.message).toContain(beside.split('/')[0]);
      expect(fs.statSync(file).size).toBe(0);
      expect(fs.readdirSync(dir).sort()).toEqual(['bindery.db', beside.split('/')[0]].sort());
    }
  });

  it('starts afresh on an empty database file alone, and in a brand-new data directory', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'bindery.db'), '');
    fs.mkdirSync(path.join(dir, 'journal'));
    const db = openDatabase(path.join(dir, 'bindery.db'));
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    db.close();
    const fresh = openDatabase(path.join(tempDir(), 'new', 'bindery.db'));
    expect(schemaVersion(fresh)).toBe(LATEST_VERSION);
    fresh.close();
  });

  it('leaves a newer WAL database truly untouched: no -wal or -shm file appears beside it', () => {
    const dir = tempDir();
    const file = path.join(dir, 'bindery.db');
    const future = new Sqlite(file);
    future.pragma('journal_mode = WAL');
    future.exec('CREATE TABLE from_the_future (x)');
    future.pragma(`user_version = ${LATEST_VERSION + 1}`);
    future.close();
    const before = { bytes: fs.readFileSync(file), mtime: fs.statSync(file).mtimeMs };
    expect(fs.readdirSync(dir)).toEqual(['bindery.db']);
    const error = caught(() => openDatabase(file));
    expect(error.code).toBe('database_too_new');
    expect(error.message).toMatch(/newer Bindery \(schema \d+; this one knows up to \d+\).*left untouched/);
    expect(fs.readdirSync(dir)).toEqual(['bindery.db']);
    expect(fs.readFileSync(file).equals(before.bytes)).toBe(true);
    expect(fs.statSync(file).mtimeMs).toBe(before.mtime);
  });

  it('runs each migration in a transaction: a failing one changes nothing and stops start-up', () => {
    const file = path.join(tempDir(), 'bindery.db');
    openDatabase(file).close();
    const broken: Migration = {
      version: LATEST_VERSION + 1,
      name: 'broken',
      up(db) {
        db.exec('CREATE TABLE half_done (x)');
        throw new Error('boom');
      },
    };
    expect(() => openDatabase(file, [...MIGRATIONS, broken])).toThrow('boom');
    const db = openDatabase(file);
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'").pluck().get()).toBe(0);
    db.close();
  });
});

function caught(run: () => unknown): BinderyError {
  try {
    run();
  } catch (error) {
    if (error instanceof BinderyError) return error;
    throw error;
  }
  throw new Error('expected a BinderyError');
}

describe('prepared statements', () => {
  it('compiles each SQL text once per database and keeps databases apart', () => {
    const one = openDatabase(path.join(tempDir('bindery-db-'), 'bindery.db'));
    const two = openDatabase(path.join(tempDir('bindery-db-'), 'bindery.db'));
    const sql = 'SELECT count(*) AS n FROM resource_types';
    expect(statement(one, sql)).toBe(statement(one, sql));
    expect(statement(two, sql)).not.toBe(statement(one, sql));
    expect(statement(two, sql).get()).toEqual(statement(one, sql).get());
    one.close();
    two.close();
  });
});

describe('commitFlushingLater', () => {
  const open = () => {
    const file = path.join(tempDir('bindery-db-'), 'bindery.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE notes (text TEXT NOT NULL)');
    return { file, db };
  };

  it('commits at once for every connection, goes back to waiting for the disk, and flushes the log afterwards', async () => {
    const { file, db } = open();
    const other = new Sqlite(file, { readonly: true });
    expect(commitFlushingLater(db, () => db.prepare("INSERT INTO notes VALUES ('one')").run().changes)).toBe(1);
    expect(other.prepare('SELECT text FROM notes').pluck().all()).toEqual(['one']);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    commitFlushingLater(db, () => db.prepare("INSERT INTO notes VALUES ('two')").run());
    await expect(flushed(db)).resolves.toBeUndefined();
    other.close();
    db.close();
    const reopened = openDatabase(file);
    expect(reopened.prepare('SELECT text FROM notes').pluck().all()).toEqual(['one', 'two']);
    reopened.close();
  });

  it('rolls back what failed and still goes back to waiting for the disk', () => {
    const { db } = open();
    expect(() =>
      commitFlushingLater(db, () => {
        db.prepare("INSERT INTO notes VALUES ('half')").run();
        db.prepare('INSERT INTO notes VALUES (NULL)').run();
      }),
    ).toThrow(/NOT NULL/);
    expect(db.prepare('SELECT count(*) FROM notes').pluck().get()).toBe(0);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });

  it('goes back to the level the connection had', () => {
    const { db } = open();
    db.pragma('synchronous = OFF');
    commitFlushingLater(db, () => db.prepare("INSERT INTO notes VALUES ('one')").run());
    expect(db.pragma('synchronous', { simple: true })).toBe(0);
    db.close();
  });

  it('joins a transaction already open, which decides for both', () => {
    const { db } = open();
    expect(() =>
      db.transaction(() => {
        commitFlushingLater(db, () => db.prepare("INSERT INTO notes VALUES ('inner')").run());
        expect(db.pragma('synchronous', { simple: true })).toBe(2);
        throw new Error('outer fails');
      })(),
    ).toThrow('outer fails');
    expect(db.prepare('SELECT count(*) FROM notes').pluck().get()).toBe(0);
    db.close();
  });

  it('has nothing to wait for on a database it never wrote to', async () => {
    const { db } = open();
    await expect(flushed(db)).resolves.toBeUndefined();
    db.close();
  });
});
