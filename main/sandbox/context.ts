/**
 * What every part of the sandbox engine shares (EngineContext): its persistence port (SandboxStore,
 * the few records it keeps in the domain's words; main/registry implements it over SQLite and the
 * composition root passes it in, so the engine never sees a database), the folders, the commit
 * journal, the clock, the activity log and the event listeners.
 */
import type { ActivityItem, CommitInfo, CommittedState, SandboxChangeList, SandboxInfo, SandboxStatusValue, TrashItem } from '../../shared/dto.ts';
import type { StoredCheckpoint } from '../../shared/review-dto.ts';
import type { journal as JournalModule } from './commit/index.ts';
import type { ProvisionProgress, SandboxLayout } from './provision/index.ts';

/**
 * How soon a transaction must be on disk. `flushed`: before it returns (the default).
 * `with-files`: it may return before the disk has it, for rows worth no more than the files
 * they describe when those files are themselves left to the kernel's writeback.
 */
export type Durability = 'flushed' | 'with-files';

/** What the engine reads and records. Every write lands whole or not at all. */
export interface SandboxStore {
  /** Runs `work` (synchronous: no await inside) in one transaction (nested inside one already open). */
  transaction<T>(work: () => T, durability?: Durability): T;

  getSandbox(id: string): SandboxInfo | undefined;
  /** The sandbox of a resource in a plan, whatever its status. */
  findSandbox(planId: string, resourceId: string): SandboxInfo | undefined;
  /** A plan's sandboxes in creation order. */
  planSandboxes(planId: string): SandboxInfo[];
  sandboxesWithStatus(statuses: readonly SandboxStatusValue[]): SandboxInfo[];
  /** True when some sandbox owns this folder. */
  isRegisteredPath(dir: string): boolean;
  /** Inserts a sandbox, or replaces every mutable field of the one with its id. */
  saveSandbox(record: SandboxInfo): void;
  setStatus(id: string, status: SandboxStatusValue, at: string, error?: string | null): void;
  /** Only for a provision that failed and left nothing behind. */
  deleteSandbox(id: string): void;
  /** The registered name of a resource, when it is registered. */
  resourceName(resourceId: string): string | undefined;

  /** Records a commit with what it left at each path (see committedStates). */
  insertCommit(commit: CommitInfo, committed?: Record<string, CommittedState>): void;
  /** The newest commit of a sandbox not undone yet. */
  lastCommit(sandboxId: string): CommitInfo | undefined;
  commitOfTransaction(transactionId: string): CommitInfo | undefined;
  markCommitUndone(id: string, at: string): void;
  /** What the sandbox's own commits left in its original, by path: not drift of someone else's. */
  committedStates(sandboxId: string): ReadonlyMap<string, CommittedState>;
  /** A discard: the sandbox's commits stop counting as its own until the trash entry made `at` is restored. */
  forgetCommittedStates(sandboxId: string, at: string): void;
  /** A restore of the trash entry made `at`: the commits that discard forgot count again. */
  rememberCommittedStates(sandboxId: string, at: string): void;
  /** Whether the commit an undo would take was made before a discard (null: there is none). */
  lastCommitForgotten(sandboxId: string): boolean | null;
  /** Journal transactions of commits no undo can reach any more (their backups serve nothing). */
  unservedCommitTransactions(): string[];

  insertTrash(entry: TrashItem): void;
  /** Entries still in the trash, newest first. */
  listTrash(): TrashItem[];
  /** One entry still in the trash. */
  getTrash(id: string): TrashItem | undefined;
  markTrashRestored(id: string, at: string): void;
  markTrashPurged(id: string, at: string): void;

  /** Appends a line to the activity log. */
  logActivity(entry: Omit<ActivityItem, 'id'>): void;

  /** The run checkpoints recorded of a sandbox (see checkpoints/), oldest first. */
  sandboxCheckpoints(sandboxId: string): StoredCheckpoint[];
  /** A discard: the sandbox's checkpoints are no longer its own (gone, or kept in its trash entry). */
  forgetCheckpoints(sandboxId: string): void;
  /** A restore: the checkpoints its discard kept are the sandbox's again. */
  restoreCheckpoints(rows: readonly StoredCheckpoint[]): void;
}

/** The commit journal's functions (main/sandbox/commit/journal/index.ts), injected so tests can add fault hooks. */
export type CommitJournal = Pick<typeof JournalModule, 'applyTransaction' | 'undoTransaction' | 'recoverTransactions' | 'abandonTransaction'>;

/** Events the engine reports: provisioning progress, sandbox status, live change lists. */
export type SandboxEvent =
  | ({ type: 'progress'; planId: string; resourceId: string; sandboxId: string } & ProvisionProgress)
  | { type: 'status'; planId: string; sandboxId: string; status: SandboxStatusValue }
  | { type: 'changes'; planId: string; sandboxId: string; changes: SandboxChangeList }
  /** Recovery finished an interrupted commit or undo of one of the plan's sandboxes. */
  | { type: 'recovered'; planId: string; sandboxId: string };

/** Shared state of one engine instance. */
export interface EngineContext {
  store: SandboxStore;
  layout: SandboxLayout;
  journal: CommitJournal;
  trashDays: number;
  /** The current time as an ISO string. */
  now(): string;
  emit(event: SandboxEvent): void;
}

/** Appends a line to the activity log. */
export function logEvent(context: EngineContext, kind: string, planId: string | null, sandboxId: string | null, message: string): void {
  context.store.logActivity({ at: context.now(), kind, planId, sandboxId, message });
}
