/** The discard room's face: what other folders may import from it. */
export { discardSandbox, finishDiscard, putBack } from './discard.ts';
export type { DiscardOptions, DiscardOutcome } from './discard.ts';
export { adoptObjects, dropStaging, pruneAddedObjects, stageObjects } from './git-objects.ts';
export { DISCARDING_FLAG, REMOVING_FLAG, RESTORING_FLAG, exists, flagOwner, heldByLiveProcess, isProcessAlive, readTrashRecord } from './trash-files.ts';
export type { TrashRecord } from './trash-files.ts';
export { assertUndoable, listTrashEntries, purgeTrash, restoreTrash } from './trash.ts';
