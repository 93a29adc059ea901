/**
 * The sandbox engine's store (main/sandbox/context.ts) over the registry database. It matches that
 * interface by shape, without importing it: the registry does not look up at the engine; the
 * composition root hands one to the other and the type checker compares them there.
 */
import type { Database } from 'better-sqlite3';
import type { ActivityItem, CommitInfo, CommittedState, SandboxInfo, SandboxStatusValue, TrashItem } from '../../shared/dto.ts';
import type { StoredCheckpoint } from '../../shared/review-dto.ts';
import { logActivity } from './activity.ts';
import { commitFlushingLater, flushed } from './database.ts';
import { findResource } from './resources.ts';
import * as checkpoints from './review-state.ts';
import * as commits from './sandbox-commits.ts';
import * as sandboxes from './sandboxes.ts';
import * as trash from './trash.ts';

/** The engine's records in one database. */
export class SqliteSandboxStore {
  constructor(readonly db: Database) {}

  /**
   * `with-files` commits without waiting for the disk and flushes right after (commitFlushingLater):
   * the relaxed durability for a sandbox's rows beside the copy they record.
   */
  transaction<T>(work: () => T, durability: 'flushed' | 'with-files' = 'flushed'): T {
    if (durability === 'with-files') return commitFlushingLater(this.db, work);
    return this.db.transaction(work)();
  }

  /** Settles once the flushes of `with-files` transactions have landed (tests and shutdown wait on it). */
  flushed(): Promise<void> {
    return flushed(this.db);
  }

  getSandbox(id: string): SandboxInfo | undefined {
    return sandboxes.getSandbox(this.db, id);
  }

  findSandbox(planId: string, resourceId: string): SandboxInfo | undefined {
    return sandboxes.findSandbox(this.db, planId, resourceId);
  }

  planSandboxes(planId: string): SandboxInfo[] {
    return sandboxes.planSandboxes(this.db, planId);
  }

  sandboxesWithStatus(statuses: readonly SandboxStatusValue[]): SandboxInfo[] {
    return sandboxes.sandboxesWithStatus(this.db, statuses);
  }

  isRegisteredPath(dir: string): boolean {
    return sandboxes.isRegisteredPath(this.db, dir);
  }

  saveSandbox(record: SandboxInfo): void {
    sandboxes.saveSandbox(this.db, record);
  }

  setStatus(id: string, status: SandboxStatusValue, at: string, error: string | null = null): void {
    sandboxes.setSandboxStatus(this.db, id, status, at, error);
  }

  deleteSandbox(id: string): void {
    sandboxes.deleteSandbox(this.db, id);
  }

  resourceName(resourceId: string): string | undefined {
    return findResource(this.db, resourceId)?.name;
  }

  insertCommit(commit: CommitInfo, committed: Record<string, CommittedState> = {}): void {
    commits.insertCommit(this.db, commit, committed);
  }

  lastCommit(sandboxId: string): CommitInfo | undefined {
    return commits.lastCommit(this.db, sandboxId);
  }

  commitOfTransaction(transactionId: string): CommitInfo | undefined {
    return commits.commitOfTransaction(this.db, transactionId);
  }

  markCommitUndone(id: string, at: string): void {
    commits.markCommitUndone(this.db, id, at);
  }

  committedStates(sandboxId: string): ReadonlyMap<string, CommittedState> {
    return commits.committedStates(this.db, sandboxId);
  }

  forgetCommittedStates(sandboxId: string, at: string): void {
    commits.forgetCommittedStates(this.db, sandboxId, at);
  }

  rememberCommittedStates(sandboxId: string, at: string): void {
    commits.rememberCommittedStates(this.db, sandboxId, at);
  }

  lastCommitForgotten(sandboxId: string): boolean | null {
    return trash.lastCommitForgotten(this.db, sandboxId);
  }

  unservedCommitTransactions(): string[] {
    return trash.unservedCommitTransactions(this.db);
  }

  insertTrash(entry: TrashItem): void {
    trash.insertTrash(this.db, entry);
  }

  listTrash(): TrashItem[] {
    return trash.listTrash(this.db);
  }

  getTrash(id: string): TrashItem | undefined {
    return trash.getTrash(this.db, id);
  }

  markTrashRestored(id: string, at: string): void {
    trash.markTrashRestored(this.db, id, at);
  }

  markTrashPurged(id: string, at: string): void {
    trash.markTrashPurged(this.db, id, at);
  }

  logActivity(entry: Omit<ActivityItem, 'id'>): void {
    logActivity(this.db, entry);
  }

  sandboxCheckpoints(sandboxId: string): StoredCheckpoint[] {
    return checkpoints.checkpointsOf(this.db, sandboxId);
  }

  forgetCheckpoints(sandboxId: string): void {
    checkpoints.forgetCheckpoints(this.db, sandboxId);
  }

  restoreCheckpoints(rows: readonly StoredCheckpoint[]): void {
    checkpoints.restoreCheckpoints(this.db, rows);
  }
}
