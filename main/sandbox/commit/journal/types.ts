/**
 * The public shapes of the commit journal: what a caller asks for (ops with expectations) and
 * what it gets back (applied, drifted, undone), plus the hooks tests use to inject crashes.
 */
import type { RecordedState } from './entry-state.ts';

/**
 * A file's stat as the caller saw it right after hashing it (fields as `fs.Stats` gives them), and
 * when the hashing began (Date.now()). While the file's stat is still exactly this, and its last
 * change (ctime, which no one can set) came well before `hashedAtMs`, the content cannot have
 * changed since, so the commit trusts the caller's hash instead of reading the file again. A
 * change shortly before the hash could share a timestamp tick with a later one ("racy", as git
 * calls it): then the file is hashed anyway.
 */
export interface SeenStat {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  hashedAtMs: number;
}

/** Content the caller hashed: its sha256 and, optionally, the stat that lets the commit trust it. */
export interface KnownContent {
  sha256: string;
  seen?: SeenStat;
}

/** What the caller believes is at a path right now; the commit refuses if it is not so. */
export type Expectation =
  | { kind: 'absent' }
  | ({ kind: 'file' } & KnownContent)
  | { kind: 'symlink'; target: string }
  | { kind: 'any' };

/** Replace (or create) the file at `relPath` with the content, type and mode of `sourcePath`. */
export interface WriteOp {
  relPath: string;
  kind: 'write';
  /** A regular file (copied) or a symlink (recreated with the same target). */
  sourcePath: string;
  /** Permission bits of the new file; defaults to the source's. Ignored for symlinks. */
  mode?: number;
  /** The source's content as the caller hashed it: saves hashing the copy while the source's stat proves it unchanged. */
  sourceContent?: KnownContent;
  expect: Expectation;
}

/** Remove the file or symlink at `relPath`. */
export interface DeleteOp {
  relPath: string;
  kind: 'delete';
  expect: Expectation;
}

/**
 * One change of a transaction; `relPath` is relative to the target root with `/` separators. Names
 * that are not UTF-8 come as strings with each such byte escaped (U+DC80..U+DCFF, see
 * ../../fs/paths.ts), in `relPath`, `sourcePath` and symlink targets alike; the journal writes the exact bytes.
 */
export type TransactionOp = WriteOp | DeleteOp;

/** A path whose state is not what the caller expected, and why. */
export interface DriftedPath {
  relPath: string;
  reason: string;
}

/**
 * The named stages of a commit, reported through `onProgress`. `staging` counts the backups of the
 * files replaced and the new versions written beside them, which happen together.
 */
export type CommitPhase = 'checking' | 'staging' | 'replacing' | 'finishing';

/** Progress of one commit: `done` of `total` steps in `phase`. */
export interface CommitProgress {
  phase: CommitPhase;
  done: number;
  total: number;
}

/**
 * Points where the journal calls `JournalHooks.at`, roughly in protocol order (the journal is
 * durable from `checked` on; `restored` happens in rollback and undo). Tests kill the process or change a
 * file at these points to prove every phase is crash-safe and drift-safe.
 */
export const FAULT_POINTS = [
  'checked',
  'backed_up',
  'prepared',
  'staged',
  'decided',
  'before_replace',
  'replaced',
  'synced',
  'restored',
  'finished',
] as const;

/** One of `FAULT_POINTS`. */
export type FaultPoint = (typeof FAULT_POINTS)[number];

/** Test seam: called (and awaited) at each fault point; `relPath` is set for per-file points. */
export interface JournalHooks {
  at(point: FaultPoint, relPath?: string): void | Promise<void>;
}

/** Input of `applyTransaction`. */
export interface ApplyTransactionInput {
  /** Folder owned by Bindery where journals and backups live (one sub-folder per transaction). */
  journalDir: string;
  /** The original folder the ops are applied to. */
  targetRoot: string;
  ops: TransactionOp[];
  /**
   * Folders (relative to the root) the commit removes once its ops have emptied them, because the
   * new version has no such folder. One that still holds anything then is left alone; undo and
   * recovery make any of them again (with its mode) to put files back.
   */
  removeDirs?: string[];
  /** Cancels before the commit point; after it the commit always finishes. */
  signal?: AbortSignal;
  /** The caller's own labels (say, which sandbox commits), kept in the journal and given back by recovery. */
  labels?: Record<string, string>;
  onProgress?: (progress: CommitProgress) => void;
  onRecovered?: OnRecovered;
  /** Crash and drift injection for tests; never set in production. */
  hooks?: JournalHooks;
  /** How many files are worked on at once (default 16). */
  concurrency?: number;
}

/** Result of `applyTransaction`: applied, or nothing changed because a path drifted. */
export type ApplyTransactionResult =
  | {
      kind: 'applied';
      transactionId: string;
      written: string[];
      deleted: string[];
      /** What each path holds now, as the commit left it. */
      committed: Record<string, RecordedState>;
    }
  | {
      kind: 'drifted';
      paths: DriftedPath[];
      /**
       * Set when the commit had begun replacing and its rollback could not put every path back (its
       * folder was swapped, say): those paths and why, with `backupDir` holding their old versions.
       */
      untouched?: DriftedPath[];
      backupDir?: string;
    };

/**
 * Called for each interrupted transaction that waited for a folder to come back (see
 * recoverTransactions) and that a commit or undo touching that folder settled first, as soon as it
 * is settled, whatever becomes of the commit or undo itself.
 */
export type OnRecovered = (done: RecoveredTransaction) => void;

/** Input of `undoTransaction`. */
export interface UndoTransactionInput {
  journalDir: string;
  targetRoot: string;
  transactionId: string;
  hooks?: JournalHooks;
  onRecovered?: OnRecovered;
}

/** Result of `undoTransaction`: restored, or refused because a file changed since the commit. */
export type UndoTransactionResult = { kind: 'undone'; restored: string[] } | { kind: 'drifted'; paths: DriftedPath[] };

/** What recovery did with one unfinished transaction. */
export interface RecoveredTransaction {
  transactionId: string;
  /**
   * `completed` or `rolled_back`: an interrupted commit was finished or undone; `undone`: an
   * interrupted undo was finished; `waiting`: its target folder is not there, so it was left as it
   * is (see `reason`).
   */
  outcome: 'completed' | 'rolled_back' | 'undone' | 'waiting';
  /** Paths recovery left alone because someone else changed them meanwhile (nothing is clobbered). */
  untouched?: DriftedPath[];
  /** Why it waits. */
  reason?: string;
  /** The labels the commit was made with (see ApplyTransactionInput). */
  labels?: Record<string, string>;
  /** For a completed commit: the paths it wrote and deleted, and what each holds now. */
  written?: string[];
  deleted?: string[];
  committed?: Record<string, RecordedState>;
}

/** Options of `recoverTransactions`. */
export interface RecoverOptions {
  hooks?: JournalHooks;
  concurrency?: number;
  /**
   * True when a finished commit (or undo) with these labels is one the caller has not recorded (its
   * process died right after the journal's last state): recovery then reports it as completed (or undone) too.
   */
  unrecorded?: (transactionId: string, labels: Record<string, string>, state: 'committed' | 'undone') => boolean;
  /** Called with each outcome while its folder's lock is still held, so the caller records it before anyone else looks. */
  onSettled?: (done: RecoveredTransaction) => void;
}
