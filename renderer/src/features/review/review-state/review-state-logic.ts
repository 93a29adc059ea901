/**
 * The review state's rules for the screen (issue 23), pure so they are tested alone: how many
 * files are viewed, what a row's mark is, which scopes apply, and how a run is named.
 */
import type { ChangedFile } from '../../../../../shared/dto.ts';
import type { ReviewScope, ReviewState, RunCheckpoint, ViewedMark } from '../../../../../shared/review-dto.ts';

/** A file's mark as the list shows it: viewed, viewed but changed since, or none. */
export type MarkState = 'viewed' | 'stale' | null;

/** The mark of `path` among `marks`. */
export function markState(marks: readonly ViewedMark[] | undefined, path: string): MarkState {
  const mark = marks?.find((m) => m.path === path);
  return mark ? (mark.stale ? 'stale' : 'viewed') : null;
}

/** How many of `changes` carry a mark that still holds (a stale one counts as not viewed). */
export function viewedCount(changes: readonly ChangedFile[], marks: readonly ViewedMark[] | undefined): number {
  const fresh = new Set((marks ?? []).filter((m) => !m.stale).map((m) => m.path));
  return changes.filter((c) => fresh.has(c.path)).length;
}

/** Runs that ended, the only ones a review can scope to. */
export function endedRuns(state: ReviewState | null): RunCheckpoint[] {
  return (state?.runs ?? []).filter((r) => r.endedAt !== null);
}

/** Which scopes apply: "since my last review" once something was marked, one run's where the tool ran more than once. */
export function scopeChoices(state: ReviewState | null): { sinceReview: boolean; runs: boolean } {
  return { sinceReview: state?.lastReviewAt != null, runs: endedRuns(state).length > 1 };
}

/** The scope to keep when the state changes: one that no longer applies falls back to all. */
export function validScope(scope: ReviewScope, state: ReviewState | null): ReviewScope {
  const choices = scopeChoices(state);
  if (scope.kind === 'since_review' && !choices.sinceReview) return { kind: 'all' };
  if (scope.kind === 'run' && (!choices.runs || !endedRuns(state).some((r) => r.runId === scope.runId))) return { kind: 'all' };
  return scope;
}

/** "Run 2 of 3 (14:02)": a run by its place among all the runs and its start, in local time. */
export function runLabel(runs: readonly RunCheckpoint[], runId: string, timeZone?: string): string {
  const index = runs.findIndex((r) => r.runId === runId);
  if (index === -1) return 'Run';
  const at = new Date(runs[index]!.startedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false, timeZone });
  return `Run ${index + 1} of ${runs.length} (${at})`;
}

/** The changes a scope shows: all, or those whose path the server listed for it. */
export function scopedChanges(changes: ChangedFile[], scope: ReviewScope, scopePaths: readonly string[] | null | undefined): ChangedFile[] {
  if (scope.kind === 'all' || !scopePaths) return changes;
  const shown = new Set(scopePaths);
  return changes.filter((c) => shown.has(c.path));
}

/** A stable key for a scope (what the state was loaded for). */
export function scopeKey(scope: ReviewScope): string {
  return scope.kind === 'run' ? `run:${scope.runId}` : scope.kind;
}

/**
 * What a scope shows, said under the switch (null for all changes). "Since my last review" goes
 * by time, so a file never marked and last written before the newest mark is left out: said too.
 */
export function scopeMeaning(scope: ReviewScope, state: ReviewState | null, timeZone?: string): string | null {
  if (scope.kind === 'since_review' && state?.lastReviewAt) {
    const at = new Date(state.lastReviewAt).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone });
    return `Files written after you last marked a file viewed (${at}), and viewed files that changed since. Files you never marked that were last written before then are only in All changes.`;
  }
  if (scope.kind === 'run') return 'Files this run of the tool changed, each shown from how the run found it to how it left it. Later changes are not shown here.';
  return null;
}

/**
 * How long to wait before asking again for a run's end checkpoint, or null to stop: soon after it
 * started, then more rarely (a run killed with its process never records one, and each ask lists
 * the sandbox), giving up after a day.
 */
export function runEndPollMs(runs: readonly RunCheckpoint[], now: number): number | null {
  const ages = runs.filter((r) => r.endedAt === null).map((r) => now - Date.parse(r.startedAt)).filter((age) => age >= 0 && age < RUN_END_WAIT_MS);
  if (ages.length === 0) return null;
  return Math.min(Math.max(Math.min(...ages) / 20, RUN_END_POLL_MIN_MS), RUN_END_POLL_MAX_MS);
}

/** A run that recorded no end for this long will not (its process ended with Bindery's). */
const RUN_END_WAIT_MS = 24 * 60 * 60 * 1000;
const RUN_END_POLL_MIN_MS = 1500;
const RUN_END_POLL_MAX_MS = 60_000;
