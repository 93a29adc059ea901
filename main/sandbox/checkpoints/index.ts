/** The checkpoints room's face: a run's checkpoints of each sandbox (issue 23). */
export { checkpointSide, checkpointsDiffer, dropCheckpoints, recordCheckpoint } from './checkpoint.ts';
export type { CheckpointRecord, CheckpointRequest, CheckpointSide } from './checkpoint.ts';
