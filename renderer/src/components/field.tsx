/**
 * A labelled form field: wires the label, hint and error to the control with ids so screen
 * readers announce them, and marks the control invalid when there is an error.
 */
import { cloneElement, useId, type ReactElement, type ReactNode } from 'react';

/** Label, optional hint and error around one control. */
export interface FieldProps {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  optional?: boolean;
  children: ReactElement<Record<string, unknown>>;
}

/** One form row; the child control receives id, aria-describedby and aria-invalid. */
export function Field({ label, hint, error, optional, children }: FieldProps): ReactElement {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label} {optional && <span className="field-optional">(optional)</span>}
      </label>
      {cloneElement(children, { id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {error && (
        <div className="field-error" id={errorId} role="alert">
          {error}
        </div>
      )}
      {hint && (
        <div className="field-hint" id={hintId}>
          {hint}
        </div>
      )}
    </div>
  );
}
