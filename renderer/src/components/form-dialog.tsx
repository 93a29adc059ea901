/** A dialog that is a form: Cancel and a submit button showing progress, over the shared Dialog. */
import type { ReactElement, ReactNode } from 'react';
import type { Submit } from '../hooks/use-submit.ts';
import { Dialog } from './dialog.tsx';

/** What the form shows and how it submits. */
export interface FormDialogProps {
  title: string;
  submitLabel: string;
  busyLabel?: string;
  state: Submit;
  onClose: () => void;
  /** Disables submitting (e.g. nothing chosen yet). */
  blocked?: boolean;
  note?: ReactNode;
  wide?: boolean;
  danger?: boolean;
  alert?: boolean;
  children: ReactNode;
}

/** The form dialog. */
export function FormDialog(props: FormDialogProps): ReactElement {
  const { title, submitLabel, busyLabel = 'Working…', state, onClose, blocked, note, wide, danger, alert, children } = props;
  return (
    <Dialog
      title={title}
      onClose={onClose}
      onSubmit={() => void state.submit()}
      wide={wide}
      alert={alert}
      busy={state.busy}
      footerNote={note}
      closeLabel="Cancel"
      footer={
        <button type="submit" className={danger ? 'btn btn-danger' : 'btn btn-primary'} disabled={state.busy || blocked}>
          {state.busy ? busyLabel : submitLabel}
        </button>
      }
    >
      {children}
    </Dialog>
  );
}
