import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxInfo } from '../../shared/dto.ts';
import { tempDir } from '../testing/fixtures.ts';
import { listActivity } from './activity.ts';
import { openDatabase } from './database.ts';
import { insertPlan } from './plans.ts';
import { SqliteSandboxStore } from './sandbox-store.ts';

const T0 = '2026-01-01T00:00:00.000Z';

function open() {
  const db = openDatabase(path.join(tempDir('bindery-store-'), 'bindery.db'));
  insertPlan(db, { id: 'P1', toolId: 'T', toolName: 'tool', projectId: 'P', projectName: 'demo', params: {}, status: 'provisioning', error: null, createdAt: T0, updatedAt: T0 });
  const store = new SqliteSandboxStore(db);
  return { db, store, flushed: () => store.flushed() };
}

function sandbox(id: string): SandboxInfo {
  return {
    id,
    planId: 'P1',
    resourceId: 'R1',
    resourceName: 'local/app',
    slotNames: ['repo'],
    originalPath: '/src/app',
    requestedStrategy: 'copy_on_write',
    strategy: 'copy_on_write',
    copyMethod: 'copy',
    fallbackReason: null,
    handler: null,
    handlerFailure: null,
    access: 'read_write',
    path: `/data/sandboxes/P1/app-${id}`,
    baseRef: null,
    baseCommit: null,
    ignoredFiles: [],
    ignoredCount: 0,
    status: 'provisioning',
    error: null,
    createdAt: T0,
    updatedAt: T0,
  };
}

describe('SqliteSandboxStore', () => {
  it("waits for the disk by default, and only 'with-files' commits before its flush (which follows)", async () => {
    const { db, store, flushed } = open();
    expect(store.transaction(() => db.pragma('synchronous', { simple: true }))).toBe(2);
    expect(store.transaction(() => (store.saveSandbox(sandbox('S1')), db.pragma('synchronous', { simple: true })), 'with-files')).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    await expect(flushed()).resolves.toBeUndefined();
    expect(store.getSandbox('S1')?.status).toBe('provisioning');
  });

  it('keeps a row and its activity line together: a failed transaction leaves neither', () => {
    const { db, store } = open();
    expect(() =>
      store.transaction(() => {
        store.saveSandbox(sandbox('S1'));
        store.logActivity({ at: T0, kind: 'sandbox.created', planId: 'P1', sandboxId: 'S1', message: 'made' });
        throw new Error('disk full');
      }, 'with-files'),
    ).toThrow('disk full');
    expect(store.getSandbox('S1')).toBeUndefined();
    expect(listActivity(db)).toEqual([]);
  });

  it('nests a transaction inside another: the inner one failing undoes only its own writes', () => {
    const { store } = open();
    store.transaction(() => {
      store.saveSandbox(sandbox('S1'));
      expect(() => store.transaction(() => (store.setStatus('S1', 'ready', T0), store.deleteSandbox('S1'), fail()))).toThrow();
    });
    expect(store.getSandbox('S1')?.status).toBe('provisioning');
  });

  it("answers in the engine's words: status, commits forgotten by a discard and remembered by a restore", () => {
    const { store } = open();
    store.saveSandbox(sandbox('S1'));
    store.setStatus('S1', 'ready', T0);
    store.insertCommit(
      { id: 'C1', sandboxId: 'S1', planId: 'P1', transactionId: 'X1', written: ['a.txt'], deleted: [], gitCommit: null, undoneAt: null, createdAt: T0 },
      { 'a.txt': { kind: 'absent' } },
    );
    expect(store.findSandbox('P1', 'R1')?.status).toBe('ready');
    expect(store.commitOfTransaction('X1')?.id).toBe('C1');
    expect([...store.committedStates('S1').keys()]).toEqual(['a.txt']);
    store.forgetCommittedStates('S1', T0);
    expect(store.committedStates('S1').size).toBe(0);
    expect(store.lastCommitForgotten('S1')).toBe(true);
    expect(store.unservedCommitTransactions()).toEqual(['X1']);
    store.rememberCommittedStates('S1', T0);
    expect(store.lastCommitForgotten('S1')).toBe(false);
    expect(store.isRegisteredPath('/data/sandboxes/P1/app-S1')).toBe(true);
    expect(store.resourceName('R1')).toBeUndefined();
  });
});

function fail(): never {
  throw new Error('inner failed');
}
