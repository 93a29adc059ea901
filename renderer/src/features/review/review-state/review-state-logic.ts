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
