/** Shows an error where it happened, in the core's own words (they already say what to do). */
import type { ReactElement } from 'react';
import { errorMessage } from '../lib/errors.ts';
import { Icon } from './icons.tsx';

/** An inline error box; renders nothing for no error. */
export function ErrorCallout({ error }: { error: unknown }): ReactElement | null {
  if (error === null || error === undefined) return null;
  return (
    <div className="callout callout-danger" role="alert">
      <Icon name="alert" />
      <div>{errorMessage(error)}</div>
    </div>
  );
}
