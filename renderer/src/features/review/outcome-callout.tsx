/** What an action did, in words (written, skipped and why), kept on screen until dismissed. */
import type { ReactElement } from 'react';
import { Icon } from '../../components/icons.tsx';

/** The lines of an outcome and how it went. */
export interface OutcomeLines {
  tone: 'success' | 'warning' | 'danger';
  lines: string[];
}

/** The callout. */
export function OutcomeCallout({
  outcome,
  onDismiss,
}: {
  outcome: OutcomeLines;
  onDismiss(): void;
}): ReactElement {
  return (
    <div className={`outcome is-${outcome.tone}`} role="status" aria-label="Outcome">
      <Icon name={outcome.tone === 'success' ? 'check' : 'alert'} />
      <div className="outcome-lines">
        {outcome.lines.map((line, index) => (
          <p key={index}>{line}</p>
        ))}
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-icon btn-sm"
        aria-label="Dismiss"
        onClick={onDismiss}
      >
        <Icon name="close" />
      </button>
    </div>
  );
}
