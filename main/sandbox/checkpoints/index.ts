/** The checkpoints room's face: a run's checkpoints of each sandbox (issue 23). */
export { checkpointSide, checkpointsDiffer, recordCheckpoint } from './checkpoint.ts';
export type { CheckpointRecord, CheckpointRequest, CheckpointSide } from './checkpoint.ts';
// For a discard, which takes a sandbox's checkpoints away with it (discard/trash-checkpoints.ts).
export { checkpointRefs, deleteCheckpointRefs, setCheckpointRefs } from './git-checkpoint.ts';
export { copyCheckpointDir } from './copy-checkpoint.ts';
