/** The engine's face: the only file of main/sandbox that other folders import. */
export { checkpointSide, checkpointsDiffer, recordCheckpoint, type CheckpointRecord, type CheckpointSide } from './checkpoints/index.ts';
export { TEXT_LIMIT, changeCounters, changeKeys, expectedFor, inspectPath, readBlobs, resetChangeCounters } from './changes/index.ts';
export type { ChangeCounters, InspectedChange, PathState } from './changes/index.ts';
export { assertSelected, lookAtTransactions, previewMerge, readJournalOrNull, revertGitCommit, journal, useLockNativeBinding } from './commit/index.ts';
export type { CommitOutcome, FaultPoint, JournalHooks, TransactionLook } from './commit/index.ts';
export { DISCARDING_FLAG, RESTORING_FLAG, heldByLiveProcess, isProcessAlive } from './discard/index.ts';
export type { DiscardOutcome } from './discard/index.ts';
export { displayPath, forEachLimit, inRoot } from './fs/index.ts';
export { isStrictlyInside, layoutFor, readMarker } from './provision/index.ts';
export type { SandboxLayout } from './provision/index.ts';
export type { RecoveryReport } from './recovery/index.ts';
export { SandboxManager } from './sandbox-manager.ts';
export type { ProvisionProgress, SandboxEvent, SandboxRequest } from './sandbox-manager.ts';
