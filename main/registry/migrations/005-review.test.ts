import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { openDatabase, schemaVersion } from '../database.ts';
import { MIGRATIONS } from './index.ts';

const T0 = '2026-01-01T00:00:00.000Z';

describe('migration 005: the review', () => {
  it('upgrades a version 4 database with empty notes, marks and checkpoints, and keeps a note well formed', () => {
    const file = path.join(tempDir(), 'bindery.db');
    const old = openDatabase(file, MIGRATIONS.slice(0, 4));
    old.prepare("INSERT INTO plans (id, tool_id, tool_name, project_id, project_name, status, created_at, updated_at) VALUES ('A', 'T', 'fixer', 'P', 'demo', 'ready', ?, ?)").run(T0, T0);
    old.close();

    const db = openDatabase(file, MIGRATIONS.slice(0, 5));
    expect(schemaVersion(db)).toBe(5);
    for (const table of ['review_notes', 'viewed_marks', 'run_checkpoints']) {
      expect(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), table).toBe(0);
    }
    const note = db.prepare(
      'INSERT INTO review_notes (id, plan_id, sandbox_id, path, side, from_line, to_line, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    note.run('N1', 'A', null, null, null, null, null, 'Look again at the plan.', T0, T0);
    // A note on a file needs its sandbox; lines need a side and a range that does not run backwards.
    expect(() => note.run('N2', 'A', null, 'a.txt', null, null, null, 'x', T0, T0)).toThrow(/CHECK/);
    expect(() => note.run('N3', 'A', null, null, null, null, null, '', T0, T0)).toThrow(/CHECK/);
    db.close();
  });
});
