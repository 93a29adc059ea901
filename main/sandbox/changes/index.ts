/** The changes room's face: what other folders may import from it. */
export { ChangeCache } from './cache.ts';
export { TEXT_LIMIT, readSmallEntry } from './content.ts';
export type { DiskEntry } from './content.ts';
export { changeCounters, resetChangeCounters } from './counters.ts';
export type { ChangeCounters } from './counters.ts';
export { committedMode, countChanges, detectChanges, inspectChanges, inspectPath } from './detect.ts';
export type { InspectedChange, OwnCommits, PathState } from './detect.ts';
export { fileDiff } from './diff.ts';
export { readBlobs } from './git-candidates.ts';
export { inspectOriginal, snapshotWorkingState, startInspection } from './git-snapshot.ts';
export type { OriginalRepo } from './git-snapshot.ts';
export { forgetListing } from './listing.ts';
export { RACY_WINDOW_MS, isRacy, manifestFile, readManifest, sha256File, writeBaseline, writeManifest } from './manifest.ts';
export type { ManifestEntry } from './manifest.ts';
export { inspectSelected } from './selected.ts';
export { unreadableError } from './unreadable.ts';
export { assertReviewed, expectedFor, inspectedVersion } from './version.ts';
export { watchSandbox } from './watch.ts';
