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
