import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { openDatabase, schemaVersion } from '../database.ts';
import { getPlan, insertPlan, setReviewRequested } from '../plans.ts';
import { findProject, insertProject, updateProject } from '../projects.ts';
import { MIGRATIONS } from './index.ts';

const T0 = '2026-01-01T00:00:00.000Z';
const basePlan = { toolId: 'T', toolName: 'fixer', projectId: 'P', projectName: 'demo', params: {}, status: 'ready' as const, error: null, createdAt: T0, updatedAt: T0 };

describe('migration 004: agent access', () => {
  it('upgrades a version 3 database: projects keep agents out, plans were made by a person', () => {
    const file = path.join(tempDir(), 'bindery.db');
    const old = openDatabase(file, MIGRATIONS.slice(0, 3));
    old.prepare("INSERT INTO projects (id, name, description, created_at, updated_at) VALUES ('P', 'demo', '', ?, ?)").run(T0, T0);
    old.prepare(
      "INSERT INTO plans (id, tool_id, tool_name, project_id, project_name, status, created_at, updated_at) VALUES ('A', 'T', 'fixer', 'P', 'demo', 'ready', ?, ?)",
    ).run(T0, T0);
    old.close();

    const db = openDatabase(file, MIGRATIONS.slice(0, 4));
    expect(schemaVersion(db)).toBe(4);
    expect(findProject(db, 'demo')?.agentMayCommit).toBe(false);
    expect(getPlan(db, 'A')).toMatchObject({ createdBy: 'person', reviewRequestedAt: null });
    db.close();
  });

  it("stores the project setting and a plan's origin and review request", () => {
    const db = openDatabase(path.join(tempDir(), 'bindery.db'));
    insertProject(db, { id: 'P', name: 'demo', description: '', createdAt: T0, updatedAt: T0 });
    const project = findProject(db, 'P')!;
    updateProject(db, { ...project, agentMayCommit: true });
    expect(findProject(db, 'P')?.agentMayCommit).toBe(true);

    insertPlan(db, { ...basePlan, id: 'A', createdBy: 'agent' });
    insertPlan(db, { ...basePlan, id: 'B' });
    expect(getPlan(db, 'B')?.createdBy).toBe('person');
    setReviewRequested(db, 'A', '2026-01-02T00:00:00.000Z');
    expect(getPlan(db, 'A')).toMatchObject({ createdBy: 'agent', reviewRequestedAt: '2026-01-02T00:00:00.000Z' });
    expect(() => db.prepare("UPDATE plans SET created_by = 'robot' WHERE id = 'A'").run()).toThrow(/CHECK/);
    db.close();
  });
});
