/** The commit room's face: what other folders may import from it. */
export { commitAll, commitSandbox, undoLastCommit } from './commit.ts';
export type { CommitOptions, CommitOutcome } from './commit.ts';
export type { FaultPoint, JournalHooks, RecoveredTransaction } from './journal/index.ts';
export { readJournalOrNull } from './journal/journal-file.ts';
export { purgeTransactionsById } from './journal/manage.ts';
export { lookAtTransactions } from './journal/pending.ts';
export type { TransactionLook } from './journal/pending.ts';
export { locksDirOf, useLockNativeBinding, withLocks } from './journal/process-lock.ts';
export * as journal from './journal/index.ts';
export { previewMerge } from './merge-preview.ts';
export { assertSelected } from './operations.ts';
export { revertGitCommit } from './revert.ts';
