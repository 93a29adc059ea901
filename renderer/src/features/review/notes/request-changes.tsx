/**
 * "Request changes": runs the tool's command again in the plan's sandboxes, which hands it the open
 * notes (the host writes them to the file named in BINDERY_REVIEW_NOTES). Disabled, with the reason,
 * when there is nothing to send, nothing to run, or a run is still working.
 */
import { useState, type ReactElement } from 'react';
import type { PlanView } from '../../../../../shared/dto.ts';
import { ErrorCallout } from '../../../components/error-callout.tsx';
import { Icon } from '../../../components/icons.tsx';
import { useRuns } from '../../../stores/runs-store.ts';
import { useRunning } from '../../plans/run-state.ts';
import { requestBlocker } from './request-blocker.ts';

/** Props: the plan's view, the number of open notes, and what to do once a run started. */
export interface RequestChangesProps {
  view: PlanView | undefined;
  open: number;
  onStarted?(runId: string): void;
}

/** The button, and the reason under it when it cannot be used. */
export function RequestChanges({ view, open, onStarted }: RequestChangesProps): ReactElement {
  const start = useRuns((s) => s.start);
  const planId = view?.plan.id;
  // The plan view learns of a run started here only when it is fetched again: ask the run store too.
  const started = useRuns((s) => Object.values(s.runs).some((r) => r.info.planId === planId && r.info.status === 'running'));
  const running = useRunning(view) || started;
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const blocker = view ? requestBlocker(open, view.toolRun, running || starting) : 'Loading the plan…';
  const request = async () => {
    if (!view) return;
    setStarting(true);
    setError(null);
    try {
      onStarted?.((await start(view.plan.id)).id);
    } catch (caught) {
      setError(caught);
    } finally {
      setStarting(false);
    }
  };
  return (
    <div className="request-changes">
      <button
        type="button"
        className="btn btn-primary request-changes-btn"
        disabled={blocker !== null}
        aria-describedby={blocker ? 'request-changes-reason' : undefined}
        title={blocker ?? `Run ${view?.plan.toolName ?? 'the tool'} again with the open notes`}
        onClick={() => void request()}
      >
        <Icon name="refresh" /> Request changes
        {open > 0 ? <span className="request-changes-count">{open}</span> : null}
      </button>
      {blocker && view ? (
        <p id="request-changes-reason" className="request-changes-reason muted">
          {blocker}
        </p>
      ) : (
        <p className="request-changes-reason muted">
          Runs the tool again in the same sandboxes; it receives the open notes as a file.
        </p>
      )}
      <ErrorCallout error={error} />
    </div>
  );
}
