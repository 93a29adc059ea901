/**
 * Shapes the API returns beyond the domain model (shared/model.ts): list rows, folder checks,
 * live statuses, validation reports, and the plan, sandbox, change, commit, trash and activity
 * records, declared once for the registry, the engine, the services and the hosts alike.
 */
import type { AccessMode, BoundResource, Resource, SandboxStrategy, ToolDefinition } from './model.ts';
import type { PatchHunk } from './patch-selection.ts';

/** A resource with the names of the projects that link it, for the resources table. */
export interface ResourceListItem extends Resource {
  projects: string[];
}

/** A newly registered resource, and the warning (naming them) when other resources already point at its folder. */
export interface ResourceAdded extends ResourceListItem {
  warning: string | null;
}

/** What the register dialog learns about a folder before anything is saved. */
export interface FolderInspection {
  /** Absolute path, symlinks resolved when the folder exists. */
  path: string;
  exists: boolean;
  isDirectory: boolean;
  /** Top of the git work tree containing the folder, or null outside git. */
  gitRoot: string | null;
  /** `git-checkout` for a work-tree root, else `fs-directory`. */
  suggestedType: string;
  /** A free `namespace/name` derived from the folder name, e.g. `local/my-app`. */
  suggestedName: string;
}

/** Live facts about a resource's folder, computed on demand (they cost a git call each). */
export interface ResourceStatus {
  resourceId: string;
  locationMissing: boolean;
  /** Current branch, `(detached)` on a detached HEAD, null when the folder is not a git root. */
  gitBranch: string | null;
  /** Changed plus untracked files, null when not a git root or git failed. */
  dirtyCount: number | null;
  /** Why git facts are missing, when they are. */
  problem: string | null;
}

/** One problem in a tool file, located at its line so an editor can mark it. */
export interface ToolFileIssue {
  file: string;
  line: number | null;
  column: number | null;
  field: string;
  message: string;
}

/** The outcome of checking a tool file without registering it. */
export interface ToolValidation {
  ok: boolean;
  /** The tools the file defines (empty when it does not parse). */
  tools: ToolDefinition[];
  issues: ToolFileIssue[];
}

/** A tool written back in its file format. */
export interface ToolExport {
  name: string;
  fileName: string;
  text: string;
}

/** One health check. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** Every health check and the overall verdict. */
export interface DoctorReport {
  dataDir: string;
  ok: boolean;
  checks: DoctorCheck[];
}

/** Which host serves the renderer. */
export type HostKind = 'electron' | 'web' | 'mcp';

/** Facts for the About panel and diagnostics. */
export interface AppInfo {
  name: string;
  version: string;
  dataDir: string;
  host: HostKind;
  platform: string;
  schemaVersion: number;
}

/** What `removeResource` undid besides the row. */
export interface ResourceRemoval {
  resource: Resource;
  unlinkedFrom: string[];
  staticIn: string[];
}

// ---------------------------------------------------------------------------------------------
// Plans and sandboxes (issue 6): the review workflow's shapes. The registry, the sandbox engine,
// the services and the hosts all use these declarations, so they cross IPC and HTTP unchanged.
// ---------------------------------------------------------------------------------------------

/** Where a plan stands. */
export const PLAN_STATUS_VALUES = [
  'provisioning',
  'ready',
  'committed',
  'partially_committed',
  'discarded',
  'failed',
] as const;
export type PlanStatusValue = (typeof PLAN_STATUS_VALUES)[number];

/** Who made a plan: a person (app, CLI, web) or an agent through `bindery mcp`. */
export const PLAN_ORIGIN_VALUES = ['person', 'agent'] as const;
export type PlanOrigin = (typeof PLAN_ORIGIN_VALUES)[number];

/** A tool activated in a project, with its provisioned sandboxes. */
export interface PlanInfo {
  id: string;
  toolId: string;
  toolName: string;
  projectId: string;
  projectName: string;
  params: Record<string, string>;
  status: PlanStatusValue;
  error: string | null;
  createdBy: PlanOrigin;
  /** When an agent said the plan's work was ready for review, or null. */
  reviewRequestedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One status a plan went through, and why. */
export interface PlanHistoryEntry {
  planId: string;
  status: PlanStatusValue;
  detail: string;
  at: string;
}

/** Where a sandbox stands; `missing` means its folder vanished outside Bindery. */
export type SandboxStatusValue = 'provisioning' | 'ready' | 'committed' | 'discarded' | 'missing' | 'failed';

/** How copy_on_write copied the files: a filesystem clone (reflink) or ordinary copies. */
export type CopyMethod = 'clone' | 'copy';

/** A plan's sandbox: how it was made (strategy, fallback, handler failure), its access and path. */
export interface SandboxInfo {
  id: string;
  planId: string;
  resourceId: string;
  resourceName: string;
  slotNames: string[];
  originalPath: string;
  requestedStrategy: SandboxStrategy;
  strategy: SandboxStrategy;
  copyMethod: CopyMethod | null;
  fallbackReason: string | null;
  handler: string | null;
  handlerFailure: string | null;
  access: AccessMode;
  path: string;
  baseRef: string | null;
  baseCommit: string | null;
  ignoredFiles: string[];
  ignoredCount: number;
  status: SandboxStatusValue;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A sandbox as a resource handler receives it: the reference's `sandbox.context.sandboxPath`
 * (it repeats `path`). Hosts get the SandboxInfo without it.
 */
export interface HandlerSandbox extends SandboxInfo {
  context: { sandboxPath: string };
}

/** What happened to one path between base and sandbox. */
export const CHANGE_KIND_VALUES = [
  'added',
  'modified',
  'deleted',
  'renamed',
  'type_changed',
  'mode_changed',
] as const;
export type ChangeKindValue = (typeof CHANGE_KIND_VALUES)[number];

/** The kind of a filesystem entry a change talks about. */
export type EntryType = 'file' | 'symlink';

/**
 * Whether the original still equals the base at a path (clean), changed there too (conflict), or
 * already holds exactly what the sandbox has (applied: nothing left to write, e.g. after a commit).
 */
export type Drift = 'clean' | 'conflict' | 'applied';

/**
 * One changed path of a sandbox, with its drift against the original. Paths use `/`; bytes that
 * are not UTF-8 are kept as U+DC80..U+DCFF (see main/sandbox/fs/paths.ts).
 */
export interface ChangedFile {
  path: string;
  oldPath: string | null;
  kind: ChangeKindValue;
  oldType: EntryType | null;
  newType: EntryType | null;
  oldMode: number | null;
  newMode: number | null;
  size: number | null;
  binary: boolean;
  additions: number | null;
  deletions: number | null;
  drift: Drift;
  driftReason: string | null;
  /** A rename's likeness of old and new content, 50-100 (percent, as git's "R093"); absent for other kinds. */
  similarity?: number;
  /** Set when a side of this path cannot be read (e.g. "the sandbox's file cannot be read: permission denied (EACCES)"), or the sandbox holds a special file there: it cannot be diffed or committed until it can. */
  unreadable?: string;
  /** Set when the sandbox holds a special file here ('FIFO', 'socket', 'block device', ...): never copied or committed; remove it from the sandbox, or keep the original (ours). */
  special?: string;
}

/** The change list of one sandbox. */
export interface SandboxChangeList {
  sandboxId: string;
  planId: string;
  resourceName: string;
  strategy: SandboxStrategy;
  access: AccessMode;
  changes: ChangedFile[];
  /** read_only sandboxes: changes found there are a violation. */
  violation: string | null;
  /** `<count>-<hash>` of these changes and their contents: send it back with a commit so it writes only what was reviewed. */
  version: string;
}

/**
 * A sandbox's change list since the version a client holds (issue 22): `unchanged` (no files),
 * `delta` (entries added or different, by path, and paths gone), or `full` (null: not live).
 */
export type SandboxChangeDelta =
  | { kind: 'unchanged'; sandboxId: string; version: string }
  | {
      kind: 'delta';
      sandboxId: string;
      since: string;
      version: string;
      upserted: ChangedFile[];
      removed: string[];
      violation: string | null;
    }
  | { kind: 'full'; list: SandboxChangeList | null };

/** One commit of a sandbox into its original. */
export interface CommitInfo {
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

/** What a commit left at a path of the original: the registry keeps it, it is never sent. */
export type CommittedState = { kind: 'absent' } | { kind: 'file'; sha256: string; mode: number } | { kind: 'symlink'; target: string };

/** Changes per kind, for confirmations and summaries. */
export type ChangeCountsInfo = Record<ChangeKindValue, number> & { total: number; /** Ignored files a discard also keeps (not in `total`). */ ignored?: number };

/** Discarded sandbox changes, recoverable until `expiresAt`. */
export interface TrashItem {
  id: string;
  sandboxId: string;
  planId: string;
  resourceName: string;
  originalPath: string;
  sandboxPath: string;
  strategy: SandboxStrategy;
  trashPath: string;
  counts: ChangeCountsInfo;
  createdAt: string;
  expiresAt: string;
  restoredAt: string | null;
}

/** One line of the activity log. */
export interface ActivityItem {
  id: number;
  at: string;
  kind: string;
  planId: string | null;
  sandboxId: string | null;
  message: string;
}

/** Provisioning progress of a plan that is still being made (for hosts without live events). */
export interface ProvisionState {
  operationId: string;
  slotName: string | null;
  phase: string;
  done: number;
  total: number | null;
}

/** A plan with everything the plan page shows. */
export interface PlanView {
  plan: PlanInfo;
  history: PlanHistoryEntry[];
  bound: BoundResource[];
  sandboxes: SandboxInfo[];
  commits: CommitInfo[];
  /** The tool's `run` command line, when it has one (the page offers to run it). */
  toolRun: string | null;
  provisioning: ProvisionState | null;
  /** The latest run of the tool in this plan (output not included: see showRun). */
  lastRun: RunInfo | null;
}

/** What createPlan returns at once; provisioning goes on and reports progress. */
export interface PlanStarted {
  planId: string;
  operationId: string;
}

/** How a conflicting path is settled: keep the original, take the sandbox, or a three-way merge. */
export const RESOLUTION_VALUES = ['ours', 'theirs', 'merge'] as const;
export type ResolutionValue = (typeof RESOLUTION_VALUES)[number];

/**
 * A text or binary diff of one path, as the engine makes it (the app gets FileDiffView). `against`
 * says what the sandbox is compared with: its base, or the original as it is now when the base
 * content is not kept (a copy whose original changed).
 */
export type FileDiff = { path: string; oldPath: string | null; against: 'base' | 'original' } & (
  | { kind: 'text'; patch: string; additions: number; deletions: number; /** Numbered as a partial commit takes them. */ hunks: PatchHunk[] }
  | { kind: 'binary'; oldSize: number | null; newSize: number | null }
  | { kind: 'too_large'; oldSize: number | null; newSize: number | null; limit: number }
);

/**
 * One file's diff as the viewer takes it (renderer DiffFile): both texts, or sizes for binary
 * files, or image data URLs, or `tooLarge` when the texts were withheld.
 */
export interface FileDiffView {
  sandboxId: string;
  oldPath: string | null;
  newPath: string | null;
  status: ChangeKindValue;
  /** A rename's likeness of old and new content, 50-100 (ChangedFile.similarity); absent for other kinds. */
  similarity?: number;
  binary: boolean;
  /** Sizes in bytes; null where that side does not exist. */
  oldSize: number | null;
  newSize: number | null;
  oldText: string | null;
  newText: string | null;
  /** Data URLs of image files; the viewer shows them side by side. */
  oldImageUrl: string | null;
  newImageUrl: string | null;
  tooLarge: boolean;
  /** Line counts when known (the large-file gate reads them before any diffing). */
  additions: number | null;
  deletions: number | null;
  /** POSIX modes (e.g. 0o100644) and entry types (a symlink's text is its target). */
  oldMode: number | null;
  newMode: number | null;
  oldType: EntryType | null;
  newType: EntryType | null;
  /** What the old side is: the sandbox's base, or the original as it is now. */
  against: FileDiff['against'];
  drift: Drift;
  driftReason: string | null;
}

/** What a commit did to one sandbox, in data and in words. */
export interface CommitReport {
  sandboxId: string;
  resourceName: string;
  committed: boolean;
  written: string[];
  deleted: string[];
  /** Paths left alone (kept as the original, or already applied). */
  skipped: string[];
  /** Paths of `written` that took only some of their changes (a selection); the rest stays pending in the sandbox. */
  partial: string[];
  gitCommit: string | null;
  /** A sentence: what was written, what was skipped and why. */
  summary: string;
}

/** What an undo restored. */
export interface UndoReport {
  sandboxId: string;
  restored: string[];
  gitCommit: string | null;
  summary: string;
}

/** A revert commit made for an undone git commit, or why none was made. */
export interface RevertReport {
  sandboxId: string;
  reverted: boolean;
  /** The revert commit, when made. */
  commit: string | null;
  summary: string;
}

/** One stretch of a three-way merge: lines it settles, or a conflict with each side's lines. */
export type MergeHunk =
  | { kind: 'same'; lines: string[] }
  | { kind: 'conflict'; base: string[]; original: string[]; sandbox: string[] };

/** A three-way merge of one conflicting file, tried without writing, so Merge is offered only where it succeeds. */
export interface MergePreview {
  path: string;
  /** clean: Merge succeeds; conflicts: the same lines changed on both sides; unavailable: no merge is possible (see reason). */
  outcome: 'clean' | 'conflicts' | 'unavailable';
  conflicts: number;
  /** Why Merge is not offered, in the dialog's words. */
  reason: string | null;
  /** The merge in stretches, conflicts with base, original and sandbox; null when unavailable. */
  hunks: MergeHunk[] | null;
}

/** What a discard did or needs first, per sandbox. */
export interface DiscardReport {
  sandboxId: string;
  resourceName: string;
  outcome: 'discarded' | 'needs_confirmation' | 'unknown' | 'ready';
  counts: ChangeCountsInfo | null;
  trashId: string | null;
  /** Why changes are unknown (outcome unknown). */
  reason: string | null;
  summary: string;
}

/** Where a tool run stands. */
export const RUN_STATUSES = ['running', 'exited', 'failed', 'stopped', 'timed_out'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** One chunk of a run's output, numbered so a client can ask for what it missed. */
export interface RunChunk {
  seq: number;
  stream: 'stdout' | 'stderr';
  text: string;
}

/** A run of a tool's `run` command in a plan's sandboxes. */
export interface RunInfo {
  id: string;
  planId: string;
  command: string;
  cwd: string;
  status: RunStatus;
  exitCode: number | null;
  signal: string | null;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  /** Why it failed to start, when it did. */
  error: string | null;
  /** Output chunks after the `afterSeq` asked for (empty in plan views). */
  output: RunChunk[];
  /** The first output chunks were dropped to bound memory. */
  truncated: boolean;
  /** The highest seq so far (-1 before any output). */
  lastSeq: number;
}

/** Change counts in words, the same in every host: "4 changes (2 modified, 1 added, 1 deleted)". */
export function describeCounts(counts: ChangeCountsInfo): string {
  const parts = CHANGE_KIND_VALUES.filter((kind) => counts[kind] > 0).map(
    (kind) => `${counts[kind]} ${kind.replace('_', ' ')}`,
  );
  const ignored = counts.ignored ? ` and ${counts.ignored} ignored file${counts.ignored === 1 ? '' : 's'}` : '';
  return `${counts.total} change${counts.total === 1 ? '' : 's'}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}${ignored}`;
}
