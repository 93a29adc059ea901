/**
 * A busy dialog holds every action until its request answers (closing would not stop it). A host
 * that is alive but stops answering, or is gone, would then lock the app until a reload: once the
 * connection bar says the host is away, or after a long wait, the dialog may be closed ("Stop
 * waiting"). The request is not cancelled and no failure is made up: its outcome, when it comes,
 * shows in a notice in the corner (use-submit.ts).
 */
import { useEffect, useState, type ReactElement } from 'react';

/** How long a request may take before the person is offered to stop waiting for it. */
export const LONG_WAIT_MS = 30_000;

/** True while `busy` has lasted LONG_WAIT_MS, or at once while the host is away. */
export function useStillWaiting(busy: boolean, connected: boolean): boolean {
  const [long, setLong] = useState(false);
  useEffect(() => {
    setLong(false);
    if (!busy) return;
    const timer = setTimeout(() => setLong(true), LONG_WAIT_MS);
    return () => clearTimeout(timer);
  }, [busy]);
  return busy && (long || !connected);
}

/** The line that says so, with the button that closes the dialog. */
export function StillWaitingNote({ connected, onStop }: { connected: boolean; onStop(): void }): ReactElement {
  return (
    <div className="callout callout-warning dialog-waiting" role="status">
      <span>
        {connected ? 'Bindery has not answered for a while.' : 'Bindery is not answering.'} You can stop waiting: what you asked
        for may still be done, and how it ended will show in a notice in the corner when Bindery answers.
      </span>
      <button type="button" className="btn btn-sm" onClick={onStop}>
        Stop waiting
      </button>
    </div>
  );
}
