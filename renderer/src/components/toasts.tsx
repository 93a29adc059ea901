/** The corner notices after an action succeeds (or fails away from any form). */
import type { ReactElement } from 'react';
import { useUi } from '../stores/ui-store.ts';
import { Icon } from './icons.tsx';

/** Renders the toasts of the UI store; a live region so they are announced. */
export function Toasts(): ReactElement {
  const toasts = useUi((state) => state.toasts);
  const dismiss = useUi((state) => state.dismissToast);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div className="toast" key={toast.id} data-tone={toast.tone}>
          <span className="toast-message">{toast.message}</span>
          <button type="button" className="btn btn-ghost btn-icon btn-sm" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
            <Icon name="close" size={12} />
          </button>
        </div>
      ))}
    </div>
  );
}
