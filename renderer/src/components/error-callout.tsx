/** Shows an error where it happened, in the core's own words (they already say what to do). */
import type { ReactElement } from 'react';
import { errorMessage } from '../lib/errors.ts';
import { Icon } from './icons.tsx';

/** An inline error box, with an optional retry; renders nothing for no error. */
export function ErrorCallout({ error, onRetry }: { error: unknown; onRetry?: () => void }): ReactElement | null {
  if (error === null || error === undefined) return null;
  return (
    <div className="callout callout-danger" role="alert">
      <Icon name="alert" />
      <div className="callout-text">{errorMessage(error)}</div>
      {onRetry && (
        <button type="button" className="btn btn-sm callout-action" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
