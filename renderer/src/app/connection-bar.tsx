/**
 * The red "Disconnected, retrying" bar at the top of the window while the host does not answer
 * (issue 22). Its live region is always present so screen readers announce the change.
 */
import { useEffect, type ReactElement } from 'react';
import { retryConnection } from '../api/index.ts';
import { Icon } from '../components/icons.tsx';
import { useConnection } from '../stores/connection-store.ts';

/** The bar; empty while connected. */
export function ConnectionBar(): ReactElement {
  const status = useConnection((state) => state.status);
  const down = status === 'offline' || status === 'refused';
  return (
    <div className="conn-bar-region" role="alert" aria-atomic="true">
      {down && (
        <div className="conn-bar" data-testid="connection-bar">
          <Icon name="alert" />
          <strong>Disconnected, retrying</strong>
          <span className="conn-bar-detail">
            {status === 'refused'
              ? 'Bindery is running again with a new access key: open the address it printed to continue.'
              : 'Bindery is not answering. Actions are paused until it is back at this address.'}
          </span>
          <button type="button" className="btn btn-sm conn-bar-retry" onClick={retryConnection}>
            <Icon name="refresh" /> Retry now
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * Disabling the screens' controls takes focus from the one that had it; this gives it back when
 * the connection returns, if nothing else took it meanwhile.
 */
export function useFocusAcrossOutage(): void {
  useEffect(() => {
    let saved: Element | null = null;
    return useConnection.subscribe((state, previous) => {
      // Runs before React renders the disabled state, so the focused control is still focused.
      if (previous.connected && !state.connected) saved = document.activeElement;
      if (!previous.connected && state.connected) {
        const target = saved;
        saved = null;
        // After React re-enables the controls.
        requestAnimationFrame(() => {
          const idle = document.activeElement === null || document.activeElement === document.body;
          if (idle && target instanceof HTMLElement && target.isConnected) target.focus();
        });
      }
    });
  }, []);
}
