/** Provisioning progress of a plan: a bar (indeterminate until the total is known) and Cancel. */
import { useState, type ReactElement } from 'react';
import type { ProvisionState } from '../../../../shared/dto.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { usePlans } from '../../stores/plans-store.ts';

/** Progress from events when they arrive, else the polled copy in the plan view. */
export function ProvisionProgress({
  planId,
  fallback,
}: {
  planId: string;
  fallback: ProvisionState | null;
}): ReactElement {
  const pushed = usePlans((s) => s.progress[planId]);
  const cancel = usePlans((s) => s.cancel);
  const [error, setError] = useState<unknown>(null);
  const [cancelling, setCancelling] = useState(false);
  const state = pushed ?? fallback;
  const fraction = state && state.total ? Math.min(1, state.done / state.total) : null;
  const label = state
    ? `${state.slotName ? `${state.slotName}: ` : ''}${state.phase}${state.total ? ` · ${state.done.toLocaleString()} of ${state.total.toLocaleString()}` : ''}`
    : 'Starting…';
  return (
    <section className="provision" aria-label="Provisioning">
      <div className="provision-row">
        <span className="spinner" aria-hidden="true" />
        <strong>Provisioning sandboxes</strong>
        <span className="muted">{label}</span>
        <span className="header-spacer" />
        <button
          type="button"
          className="btn btn-sm"
          disabled={cancelling}
          onClick={() => {
            setCancelling(true);
            cancel(planId).catch((caught: unknown) => {
              setError(caught);
              setCancelling(false);
            });
          }}
        >
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label="Provisioning progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={fraction === null ? undefined : Math.round(fraction * 100)}
      >
        <div
          className={fraction === null ? 'progress-bar is-indeterminate' : 'progress-bar'}
          style={fraction === null ? undefined : { width: `${fraction * 100}%` }}
        />
      </div>
      <ErrorCallout error={error} />
    </section>
  );
}
