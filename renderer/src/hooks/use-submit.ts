/**
 * The busy and error state of a form's submit: runs the action, keeps the error for display
 * where it belongs, and calls `onDone` only on success (typically closing the dialog).
 */
import { useState } from 'react';

/** State and trigger of one submit action. */
export interface Submit {
  busy: boolean;
  error: unknown;
  setError(error: unknown): void;
  submit(): Promise<void>;
}

/** Wraps `action`; a thrown error is kept and shown, success runs `onDone`. */
export function useSubmit(action: () => Promise<unknown>, onDone: () => void): Submit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await action();
      onDone();
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };
  return { busy, error, setError, submit };
}
