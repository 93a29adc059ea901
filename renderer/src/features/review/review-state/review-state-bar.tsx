/**
 * The review header's state row (issue 23): the scope switch (all changes, since my last review,
 * one run of the tool), shown only where a scope other than all applies, and "3 of 12 viewed"
 * with a thin progress bar.
 */
import type { ReactElement } from 'react';
import type { ChangedFile } from '../../../../../shared/dto.ts';
import { formatNumber } from '../../../lib/counts.ts';
import { endedRuns, runLabel, scopeChoices, scopeMeaning, viewedCount } from './review-state-logic.ts';
import { useReviewState } from './review-state-store.ts';
import './review-state.css';

/** Props: every pending change of the sandbox, and how many the scope shows. */
export interface ReviewStateBarProps {
  changes: readonly ChangedFile[];
  shown: number;
}

/** The scope switch and the viewed count. */
export function ReviewStateBar({ changes, shown }: ReviewStateBarProps): ReactElement | null {
  const state = useReviewState((s) => s.state);
  const scope = useReviewState((s) => s.scope);
  const setScope = useReviewState((s) => s.setScope);
  const scopeError = useReviewState((s) => s.scopeError);
  if (changes.length === 0) return null;
  const meaning = scopeMeaning(scope, state);
  const choices = scopeChoices(state);
  const runs = endedRuns(state);
  const allRuns = state?.runs ?? [];
  const viewed = viewedCount(changes, state?.marks);
  const share = Math.round((viewed / changes.length) * 100);
  return (
    <>
      <div className="review-state-bar">
        {(choices.sinceReview || choices.runs) && (
          <div
            className="segmented review-scope"
            role="radiogroup"
            aria-label="Show"
            aria-describedby={meaning ? 'review-scope-meaning' : undefined}
          >
            <button
              type="button"
              role="radio"
              aria-checked={scope.kind === 'all'}
              className="segmented-option"
              onClick={() => setScope({ kind: 'all' })}
            >
              All changes
            </button>
            {choices.sinceReview && (
              <button
                type="button"
                role="radio"
                aria-checked={scope.kind === 'since_review'}
                className="segmented-option"
                title={
                  state?.lastReviewAt
                    ? `Files changed since ${new Date(state.lastReviewAt).toLocaleString()}, when you last marked a file viewed`
                    : undefined
                }
                onClick={() => setScope({ kind: 'since_review' })}
              >
                Since my last review
              </button>
            )}
            {choices.runs && (
              <select
                className={`segmented-option review-run-select${scope.kind === 'run' ? ' is-on' : ''}`}
                aria-label="Show the changes of one run of the tool"
                value={scope.kind === 'run' ? scope.runId : ''}
                onChange={(event) =>
                  event.target.value && setScope({ kind: 'run', runId: event.target.value })
                }
              >
                {scope.kind !== 'run' && <option value="">One run…</option>}
                {runs.map((run) => (
                  <option key={run.runId} value={run.runId}>
                    {runLabel(allRuns, run.runId)}
                  </option>
                ))}
              </select>
            )}
          </div>
        )}
        {scope.kind !== 'all' && (
          <span className="review-scope-count muted">
            {formatNumber(shown)} of {formatNumber(changes.length)} files
          </span>
        )}
        <span className="review-viewed" title={`${viewed} of ${changes.length} changed files marked viewed`}>
          <span className="review-viewed-text">
            <strong>{formatNumber(viewed)}</strong> of {formatNumber(changes.length)} viewed
          </span>
          <span className="review-viewed-track" aria-hidden="true">
            <span className="review-viewed-fill" style={{ width: `${share}%` }} />
          </span>
        </span>
      </div>
      {scopeError ? (
        <p className="review-scope-meaning is-warning" role="status">
          Showing all changes: {scopeError}
        </p>
      ) : (
        meaning && (
          <p className="review-scope-meaning muted" id="review-scope-meaning">
            {meaning}
          </p>
        )
      )}
    </>
  );
}
