/**
 * The busy and error state of a form's submit: runs the action, keeps the error for display
 * where it belongs, and calls `onDone` only on success (typically closing the dialog). When the
 * dialog is gone before the request answers (navigation, or "Stop waiting" on a host that does
 * not answer), the outcome is not lost: a notice kept until dismissed says how it ended.
 */
import { useEffect, useRef, useState } from 'react';
import { orphanFailure, orphanSuccess, type Notice } from '../lib/orphan-outcome.ts';
import { useUi } from '../stores/ui-store.ts';

/** State and trigger of one submit action. */
export interface Submit {
  busy: boolean;
  error: unknown;
  setError(error: unknown): void;
  submit(): Promise<void>;
}

/** How to tell the outcome when no dialog is left to show it. */
export interface SubmitReport<T> {
  /** The action in a few words, as the notice's start: "Commit to local/site". */
  label: string;
  /** The notice of a success; without it the notice says "<label>: done." (null: the action says so itself, e.g. in a toast of its own). */
  success?: ((result: T) => Notice | string) | null;
}

/** Wraps `action`; a thrown error is kept and shown, success runs `onDone` (with the action's result). */
export function useSubmit<T>(action: () => Promise<T>, onDone: (result: T) => void, report: SubmitReport<T>): Submit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const submit = async () => {
    setBusy(true);
    setError(null);
    let result: T;
    try {
      result = await action();
    } catch (caught) {
      if (!mounted.current) return notify(orphanFailure(report.label, caught));
      setError(caught);
      setBusy(false);
      return;
    }
    if (mounted.current) {
      onDone(result);
      // A dialog that stays open after success (a refusal it shows) must act again.
      setBusy(false);
    } else if (report.success !== null) notify(orphanSuccess(report.label, report.success?.(result)));
  };
  return { busy, error, setError, submit };
}

function notify(notice: Notice): void {
  useUi.getState().toast(notice.message, notice.tone, { sticky: true });
}
