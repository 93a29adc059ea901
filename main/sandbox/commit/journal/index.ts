/**
 * Bindery's crash-safe commit journal (DESIGN 2.3): apply a set of file changes to an original
 * folder so a crash at any point leaves every file wholly old or wholly new, undo a commit from
 * its backups, and finish or undo interrupted commits at start.
 *
 * Use: `recoverTransactions(journalDir)` once at start, before any commit; then per commit
 * `applyTransaction({ journalDir, targetRoot, ops })` -> `applied` (keep `transactionId` for undo)
 * or `drifted` (nothing changed; show the paths); `undoTransaction(...)` for "undo last commit";
 * `purgeTransactions(journalDir, before)` now and then to drop old backups.
 */
export { applyTransaction, leftList } from './apply.ts';
export { undoTransaction } from './undo.ts';
export { abandonTransaction, recoverTransactions } from './recover.ts';
export { listTransactions, purgeTransactions, type TransactionSummary } from './manage.ts';
export { checkRelPath } from './safe-path.ts';
export { folderKey, holdsLock, locksDirOf, withLocks, type LockKey } from './process-lock.ts';
export { TEMP_PREFIX } from './journal-file.ts';
export { FAULT_POINTS } from './types.ts';
export type { RecordedState } from './entry-state.ts';
export type {
  ApplyTransactionInput,
  ApplyTransactionResult,
  CommitPhase,
  CommitProgress,
  DeleteOp,
  DriftedPath,
  Expectation,
  FaultPoint,
  JournalHooks,
  KnownContent,
  OnRecovered,
  RecoverOptions,
  RecoveredTransaction,
  SeenStat,
  TransactionOp,
  UndoTransactionInput,
  UndoTransactionResult,
  WriteOp,
} from './types.ts';
