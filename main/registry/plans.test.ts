import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { listActivity, logActivity } from './activity.ts';
import { openDatabase } from './database.ts';
import { getPlan, insertPlan, listPlans, planBindings, planHistory, plansWithIdPrefix, setPlanBindings, setPlanStatus } from './plans.ts';
import { insertCommit, lastCommit, markCommitUndone } from './sandbox-commits.ts';
import { deleteSandbox, findSandbox, getSandbox, isRegisteredPath, planSandboxes, saveSandbox, sandboxesWithStatus, setSandboxBase, setSandboxStatus } from './sandboxes.ts';
import { getTrash, insertTrash, listTrash, markTrashPurged, markTrashRestored } from './trash.ts';
import type { PlanInfo, SandboxInfo } from '../../shared/dto.ts';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:01:00.000Z';

function plan(id: string, createdAt = T0): PlanInfo {
  return { id, toolId: 'T', toolName: 'fixer', projectId: 'P', projectName: 'demo', params: { target: 'local/out' }, status: 'provisioning', error: null, createdBy: 'person', reviewRequestedAt: null, createdAt, updatedAt: createdAt };
}

function sandbox(id: string, planId: string, resourceId: string): SandboxInfo {
  return {
    id,
    planId,
    resourceId,
    resourceName: 'local/app',
    slotNames: ['repo'],
    originalPath: '/src/app',
    requestedStrategy: 'git_worktree',
    strategy: 'copy_on_write',
    copyMethod: 'copy',
    fallbackReason: 'not a work tree',
    handler: null,
    handlerFailure: null,
    access: 'read_write',
    path: `/data/sandboxes/${planId}/app-${id}`,
    baseRef: null,
    baseCommit: null,
    ignoredFiles: ['.env'],
    ignoredCount: 1,
    status: 'provisioning',
    error: null,
    createdAt: T0,
    updatedAt: T0,
  };
}

describe('plan registry', () => {
  it('stores plans with their status history', () => {
    const db = openDatabase(path.join(tempDir(), 'b.db'));
    insertPlan(db, plan('P1'));
    insertPlan(db, plan('P2', T1));
    setPlanStatus(db, 'P1', 'ready', '2 sandboxes provisioned', T1);
    expect(getPlan(db, 'P1')).toMatchObject({ status: 'ready', params: { target: 'local/out' } });
    expect(planHistory(db, 'P1').map((h) => [h.status, h.detail])).toEqual([
      ['provisioning', 'created'],
      ['ready', '2 sandboxes provisioned'],
    ]);
    expect(listPlans(db).map((p) => p.id)).toEqual(['P2', 'P1']);
    expect(listPlans(db, { status: 'ready' }).map((p) => p.id)).toEqual(['P1']);
    expect(listPlans(db, { limit: 1 }).map((p) => p.id)).toEqual(['P2']);
  });

  it('keeps the bound slots of a plan and finds plans by id prefix', () => {
    const db = openDatabase(path.join(tempDir(), 'b.db'));
    insertPlan(db, plan('01HAAA1'));
    insertPlan(db, plan('01HAAB2'));
    const bound = [{ slotName: 'repo', resourceId: 'R', resourceType: 'git-checkout', sandboxPath: '/s', access: 'read_write' as const }];
    setPlanBindings(db, '01HAAA1', bound);
    expect(planBindings(db, '01HAAA1')).toEqual(bound);
    expect(planBindings(db, 'nope')).toEqual([]);
    expect(plansWithIdPrefix(db, '01HAA').map((p) => p.id)).toEqual(['01HAAA1', '01HAAB2']);
    expect(plansWithIdPrefix(db, '01HAAB').map((p) => p.id)).toEqual(['01HAAB2']);
    expect(plansWithIdPrefix(db, '%')).toEqual([]);
  });

  it('stores sandboxes, one per (plan, resource)', () => {
    const db = openDatabase(path.join(tempDir(), 'b.db'));
    insertPlan(db, plan('P1'));
    saveSandbox(db, sandbox('S1', 'P1', 'R1'));
    expect(() => saveSandbox(db, sandbox('S2', 'P1', 'R1'))).toThrow(/UNIQUE/);
    saveSandbox(db, { ...sandbox('S1', 'P1', 'R1'), slotNames: ['repo', 'docs'], status: 'ready' });
    expect(findSandbox(db, 'P1', 'R1')).toMatchObject({ id: 'S1', slotNames: ['repo', 'docs'], ignoredFiles: ['.env'], status: 'ready' });
    setSandboxStatus(db, 'S1', 'missing', T1, 'directory vanished');
    expect(getSandbox(db, 'S1')).toMatchObject({ status: 'missing', error: 'directory vanished' });
    expect(sandboxesWithStatus(db, ['missing']).map((s) => s.id)).toEqual(['S1']);
    expect(planSandboxes(db, 'P1')).toHaveLength(1);
    expect(isRegisteredPath(db, '/data/sandboxes/P1/app-S1')).toBe(true);
    expect(isRegisteredPath(db, '/data/sandboxes/P1/other')).toBe(false);
    setSandboxBase(db, 'S1', 'abc123', T1);
    expect(getSandbox(db, 'S1')?.baseCommit).toBe('abc123');
    deleteSandbox(db, 'S1');
    expect(getSandbox(db, 'S1')).toBeUndefined();
  });

  it('stores commits, trash and activity', () => {
    const db = openDatabase(path.join(tempDir(), 'b.db'));
    insertPlan(db, plan('P1'));
    saveSandbox(db, sandbox('S1', 'P1', 'R1'));
    const odd = 'bad\udcffname';
    insertCommit(db, { id: 'C1', sandboxId: 'S1', planId: 'P1', transactionId: 'X1', written: [odd], deleted: [], gitCommit: null, undoneAt: null, createdAt: T0 });
    expect(lastCommit(db, 'S1')?.written).toEqual([odd]);
    markCommitUndone(db, 'C1', T1);
    expect(lastCommit(db, 'S1')).toBeUndefined();

    const counts = { added: 1, modified: 0, deleted: 0, renamed: 0, type_changed: 0, mode_changed: 0, total: 1 };
    insertTrash(db, { id: 'X', sandboxId: 'S1', planId: 'P1', resourceName: 'local/app', originalPath: '/src/app', sandboxPath: '/s', strategy: 'copy_on_write', trashPath: '/t', counts, createdAt: T0, expiresAt: T1, restoredAt: null });
    expect(getTrash(db, 'X')?.counts).toEqual(counts);
    markTrashRestored(db, 'X', T1);
    expect(listTrash(db)).toEqual([]);
    insertTrash(db, { id: 'Y', sandboxId: 'S1', planId: 'P1', resourceName: 'local/app', originalPath: '/src/app', sandboxPath: '/s', strategy: 'copy_on_write', trashPath: '/t', counts, createdAt: T0, expiresAt: T1, restoredAt: null });
    expect(listTrash(db).map((t) => t.id)).toEqual(['Y']);
    markTrashPurged(db, 'Y', T1);
    expect(listTrash(db)).toEqual([]);
    expect(getTrash(db, 'Y')).toBeUndefined();

    logActivity(db, { at: T0, kind: 'plan.created', planId: 'P1', sandboxId: null, message: 'Plan created' });
    expect(listActivity(db, { planId: 'P1' }).map((a) => a.kind)).toEqual(['plan.created']);
  });
});
