/**
 * The shapes of plans, sandboxes, changes, commits and trash entries. Plain data shared by the
 * registry, the sandbox engine, the services and the hosts.
 */
import type { ChangedFile, PlanOrigin, SandboxInfo } from '../../shared/dto.ts';
import type { AccessMode, SandboxStrategy } from '../../shared/model.ts';

/** Where a plan stands; the registry keeps every transition. */
export const PLAN_STATUSES = ['provisioning', 'ready', 'committed', 'partially_committed', 'discarded', 'failed'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** A tool activated in a project, with its provisioned sandboxes. */
export interface Plan {
  id: string;
  toolId: string;
  toolName: string;
  projectId: string;
  projectName: string;
  params: Record<string, string>;
  status: PlanStatus;
  error: string | null;
  /** A person, or an agent through `bindery mcp`. */
  createdBy: PlanOrigin;
  /** When an agent said the work was ready for review, or null. */
  reviewRequestedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One status a plan went through, and why. */
export interface PlanStatusEntry {
  planId: string;
  status: PlanStatus;
  detail: string;
  at: string;
}

/** Where a sandbox stands. `missing` means its directory vanished outside Bindery. */
export const SANDBOX_STATUSES = ['provisioning', 'ready', 'committed', 'discarded', 'missing', 'failed'] as const;
export type SandboxStatus = (typeof SANDBOX_STATUSES)[number];

/** How copy_on_write copied the files: a filesystem clone (reflink) or ordinary copies. */
export type CopyMethod = 'clone' | 'copy';

/**
 * A sandbox as the registry records it: the shared DTO (strategy asked for and used, fallback
 * reason, handler failure, access, path, git base, ignored files), so hosts pass it on unchanged.
 */
export type SandboxRecord = SandboxInfo;

/** A sandbox as handlers see it; `context.sandboxPath` mirrors the reference's `sandbox.context`. */
export interface Sandbox extends SandboxRecord {
  context: { sandboxPath: string };
}

/** What happened to one path between base and sandbox. */
export const CHANGE_KINDS = ['added', 'modified', 'deleted', 'renamed', 'type_changed', 'mode_changed'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The kind of a filesystem entry a change talks about. */
export type EntryType = 'file' | 'symlink';

/**
 * Whether the original still equals the base at a path (clean), changed there too (conflict), or
 * already holds exactly what the sandbox has (applied: nothing left to write, e.g. after a commit).
 */
export type Drift = 'clean' | 'conflict' | 'applied';

/**
 * One changed path of a sandbox against its base (the shared DTO). Paths use `/`; bytes that are
 * not UTF-8 are kept as U+DC80..U+DCFF (see fs-path.ts).
 */
export type FileChange = ChangedFile;

/** The change list of one sandbox. */
export interface SandboxChanges {
  sandboxId: string;
  planId: string;
  resourceName: string;
  strategy: SandboxStrategy;
  access: AccessMode;
  changes: FileChange[];
  /** read_only sandboxes: changes found there are reported as a violation. */
  violation: string | null;
  /** The list's version (change-version.ts): a commit given it refuses a list that changed since. */
  version: string;
}

/**
 * A text or binary diff of one path. `against` says what the sandbox is compared with: its base,
 * or the original as it is now when the base content is not kept (a copy whose original changed).
 */
export type FileDiff = { path: string; oldPath: string | null; against: 'base' | 'original' } & (
  | { kind: 'text'; patch: string; additions: number; deletions: number }
  | { kind: 'binary'; oldSize: number | null; newSize: number | null }
  | { kind: 'too_large'; oldSize: number | null; newSize: number | null; limit: number }
);

/** How a conflicting path is settled: keep the original, take the sandbox, or a three-way merge. */
export const RESOLUTIONS = ['ours', 'theirs', 'merge'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** What a commit left at a path of the original (the journal's record of it). */
export type CommittedState = { kind: 'absent' } | { kind: 'file'; sha256: string; mode: number } | { kind: 'symlink'; target: string };

/** One commit of a sandbox into its original. */
export interface CommitRecord {
  id: string;
  sandboxId: string;
  planId: string;
  transactionId: string;
  written: string[];
  deleted: string[];
  gitCommit: string | null;
  undoneAt: string | null;
  createdAt: string;
}

/** Discarded sandbox changes, recoverable until `expiresAt`. */
export interface TrashEntry {
  id: string;
  sandboxId: string;
  planId: string;
  resourceName: string;
  originalPath: string;
  sandboxPath: string;
  strategy: SandboxStrategy;
  trashPath: string;
  counts: ChangeCounts;
  createdAt: string;
  expiresAt: string;
  restoredAt: string | null;
}

/** Changes per kind, for confirmations and summaries. */
export type ChangeCounts = Record<ChangeKind, number> & { total: number; /** Ignored files a discard of a worktree also keeps (not in `total`). */ ignored?: number };

/** One line of the activity log: plans, commits, undos, discards, restores. */
export interface ActivityEntry {
  id: number;
  at: string;
  kind: string;
  planId: string | null;
  sandboxId: string | null;
  message: string;
}
