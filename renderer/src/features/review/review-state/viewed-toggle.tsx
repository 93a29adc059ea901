/**
 * A file row's "viewed" checkbox (issue 23) and, when the file changed after it was marked, the
 * "changed since viewed" badge. Like the commit checkbox it is no Tab stop: `v` on the row toggles it.
 */
import type { ReactElement } from 'react';
import { markState } from './review-state-logic.ts';
import { useReviewState } from './review-state-store.ts';
import { toggleViewed } from './use-review-state.ts';
import './review-state.css';

/** The viewed mark of one file row. */
export function ViewedToggle({ path }: { path: string }): ReactElement {
  const mark = useReviewState((s) => markState(s.state?.marks, path));
  return (
    <>
      {mark === 'stale' && (
        <span className="stale-badge" role="note" aria-label="changed since viewed" title="Changed since viewed: you marked this file viewed, and it changed after that. Look again, then mark it viewed (v).">
          changed
        </span>
      )}
      <label className={`viewed-check${mark ? ` is-${mark}` : ''}`} title={mark === 'viewed' ? 'Viewed (v)' : 'Mark as viewed (v)'}>
        <input type="checkbox" tabIndex={-1} checked={mark === 'viewed'} aria-label={`Viewed ${path}`} onChange={() => toggleViewed(path)} />
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path d="M8 3C4.4 3 1.7 5.6 1 8c.7 2.4 3.4 5 7 5s6.3-2.6 7-5c-.7-2.4-3.4-5-7-5Zm0 8.2A3.2 3.2 0 1 1 8 4.8a3.2 3.2 0 0 1 0 6.4Zm0-1.7a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3Z" fill="currentColor" />
        </svg>
      </label>
    </>
  );
}
