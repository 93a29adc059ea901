/**
 * A modal dialog on the native <dialog> element: the browser traps focus, handles Escape and
 * marks the rest of the page inert. Mount it to open it; unmounting closes it, so form state
 * starts fresh each time.
 */
import { useEffect, useId, useRef, type FormEvent, type ReactElement, type ReactNode } from 'react';
import { Icon } from './icons.tsx';

/** What a dialog shows and how it closes. */
export interface DialogProps {
  title: string;
  onClose: () => void;
  /** Called on submit (Enter in a field or the submit button); the form is not posted. */
  onSubmit?: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  /** Role `alertdialog` for confirmations, so assistive tech reads them as such. */
  alert?: boolean;
}

/** A titled modal with a body and a footer of actions. */
export function Dialog({ title, onClose, onSubmit, children, footer, wide, alert }: DialogProps): ReactElement {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    // Escape fires "cancel": let React state decide, so the dialog unmounts rather than hides.
    const onCancel = (event: Event) => {
      event.preventDefault();
      closeRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
    };
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit?.();
  };

  return (
    <dialog ref={ref} className={wide ? 'dialog dialog-wide' : 'dialog'} aria-labelledby={titleId} role={alert ? 'alertdialog' : undefined}>
      <form className="dialog-form" onSubmit={submit} noValidate>
        <div className="dialog-header">
          <h2 className="dialog-title" id={titleId}>
            {title}
          </h2>
          <button type="button" className="btn btn-ghost btn-icon btn-sm" onClick={onClose} aria-label="Close">
            <Icon name="close" />
          </button>
        </div>
        <div className="dialog-body">{children}</div>
        {footer && <div className="dialog-footer">{footer}</div>}
      </form>
    </dialog>
  );
}
