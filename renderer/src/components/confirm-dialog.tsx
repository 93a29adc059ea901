/**
 * The one confirmation every destructive action goes through: says what will happen, lists
 * what is affected, optionally offers an explained "force" choice, and shows the failure inline
 * if the action is refused.
 */
import { useState, type ReactElement, type ReactNode } from 'react';
import { useSubmit } from '../hooks/use-submit.ts';
import { ErrorCallout } from './error-callout.tsx';
import { FormDialog } from './form-dialog.tsx';

/** An opt-in checkbox that widens the action, with the consequence spelled out. */
export interface ForceOption {
  label: string;
  explanation: string;
}

/** What to confirm and what to do once confirmed. */
export interface ConfirmDialogProps {
  title: string;
  message: ReactNode;
  /** Things affected, shown as a list (e.g. projects that link a resource). */
  items?: string[];
  itemsLabel?: string;
  confirmLabel: string;
  force?: ForceOption;
  /** Runs the action; a thrown error is shown in the dialog and keeps it open. */
  onConfirm: (options: { force: boolean }) => Promise<unknown> | void;
  onClose: () => void;
}

/** Asks before a destructive action and reports its outcome in place. */
export function ConfirmDialog(props: ConfirmDialogProps): ReactElement {
  const { title, message, items, itemsLabel, confirmLabel, force, onConfirm, onClose } = props;
  const [forced, setForced] = useState(false);
  const state = useSubmit(async () => onConfirm({ force: forced }), onClose, { label: title });
  return (
    <FormDialog title={title} submitLabel={confirmLabel} state={state} onClose={onClose} danger alert>
      <div>{message}</div>
      {items && items.length > 0 && (
        <div>
          {itemsLabel && <div className="field-label">{itemsLabel}</div>}
          <ul className="confirm-list">
            {items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
      )}
      {force && (
        <label className="check-item" style={{ padding: 0 }}>
          <input type="checkbox" checked={forced} onChange={(event) => setForced(event.target.checked)} />
          <span>
            <strong>{force.label}</strong>
            <span className="field-hint" style={{ display: 'block' }}>
              {force.explanation}
            </span>
          </span>
        </label>
      )}
      <ErrorCallout error={state.error} />
    </FormDialog>
  );
}
