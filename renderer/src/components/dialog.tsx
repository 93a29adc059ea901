/**
 * A modal dialog on the native <dialog> element: the browser traps focus, handles Escape and
 * marks the rest of the page inert. Mount it to open it; unmounting closes it, so form state
 * starts fresh each time. It is placed on the document's body, outside the screen's fieldset
 * that disables everything while the host is away: there only its footer's actions (which reach
 * the host) are disabled, and its close and Cancel buttons still close it. While its own request
 * is in flight (`busy`) nothing in it acts, Esc included: closing would not stop the request.
 * Once the host is away or has been silent a long while, it may be closed all the same ("Stop
 * waiting", its close button, Esc); the request's outcome then shows in a notice (use-submit.ts).
 */
import { useEffect, useId, useLayoutEffect, useRef, type FormEvent, type ReactElement, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useConnection } from '../stores/connection-store.ts';
import { Icon } from './icons.tsx';
import { StillWaitingNote, useStillWaiting } from './still-waiting.tsx';

/** What a dialog shows and how it closes. */
export interface DialogProps {
  title: string;
  onClose: () => void;
  /** Called on submit (Enter in a field or the submit button); the form is not posted. */
  onSubmit?: () => void;
  children: ReactNode;
  /** The footer's actions: disabled while the host does not answer. */
  footer?: ReactNode;
  /** A footer button that only closes the dialog (Cancel, Close), first after the note: works offline too. */
  closeLabel?: ReactNode;
  /** Muted text at the footer's start. */
  footerNote?: ReactNode;
  wide?: boolean;
  /** Role `alertdialog` for confirmations, so assistive tech reads them as such. */
  alert?: boolean;
  /** The dialog's request is in flight: every button and Esc wait until it answers. */
  busy?: boolean;
}

/** A titled modal with a body and a footer of actions. */
export function Dialog({ title, onClose, onSubmit, children, footer, closeLabel, footerNote, wide, alert, busy = false }: DialogProps): ReactElement {
  const ref = useRef<HTMLDialogElement>(null);
  const connected = useConnection((state) => state.connected);
  const titleId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  // Stuck: busy, but the host is away or silent too long, so closing is offered.
  const stuck = useStillWaiting(busy, connected);
  const heldRef = useRef(busy && !stuck);
  heldRef.current = busy && !stuck;
  useFocusHeldWhileBusy(ref, busy);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    // Escape fires "cancel": let React state decide, so the dialog unmounts rather than hides.
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (!heldRef.current) closeRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
    };
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Enter in a field submits too: not while the host is away (the submit button says so by being disabled).
    if (connected && !busy) onSubmit?.();
  };

  return createPortal(
    <dialog ref={ref} className={wide ? 'dialog dialog-wide' : 'dialog'} aria-labelledby={titleId} role={alert ? 'alertdialog' : undefined} aria-busy={busy || undefined} tabIndex={busy ? -1 : undefined}>
      <form className="dialog-form" onSubmit={submit} noValidate>
        <div className="dialog-header">
          <h2 className="dialog-title" id={titleId}>
            {title}
          </h2>
          <button type="button" className="btn btn-ghost btn-icon btn-sm" onClick={onClose} aria-label="Close" disabled={busy && !stuck}>
            <Icon name="close" />
          </button>
        </div>
        <div className="dialog-body">
          {children}
          {stuck && <StillWaitingNote connected={connected} onStop={onClose} />}
        </div>
        {(footer || closeLabel || footerNote) && (
          <div className="dialog-footer">
            {footerNote !== undefined && <span className="dialog-footer-note">{footerNote}</span>}
            {closeLabel !== undefined && (
              <button type="button" className="btn" onClick={onClose} disabled={busy}>
                {closeLabel}
              </button>
            )}
            {footer && (
              <fieldset className="content-actions" disabled={!connected || busy}>
                {footer}
              </fieldset>
            )}
          </div>
        )}
      </form>
    </dialog>,
    document.body,
  );
}

/**
 * Disabling the focused button (the submit just pressed) drops focus to the page's body, where
 * Tab no longer finds the dialog: while busy the dialog itself holds focus (focusable only then,
 * so opening still focuses its first field), and when the request answers (an error shown, the
 * actions usable again) focus goes back to that button, or to Close when that button is gone.
 */
function useFocusHeldWhileBusy(ref: RefObject<HTMLDialogElement | null>, busy: boolean): void {
  const held = useRef<HTMLElement | null>(null);
  // The browser blurs a button the moment it is disabled, before any effect runs: remember the
  // last element focused inside, rather than asking where focus is.
  const last = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement && event.target !== dialog) last.current = event.target;
    };
    dialog.addEventListener('focusin', onFocusIn);
    return () => dialog.removeEventListener('focusin', onFocusIn);
  }, [ref]);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const focused = document.activeElement;
    const lost = focused === null || focused === document.body || (focused instanceof HTMLElement && focused.matches(':disabled'));
    if (busy) {
      if (lost) {
        held.current = last.current;
        dialog.focus();
      }
      return;
    }
    const back = held.current;
    held.current = null;
    // Only if focus is still where busy put it: a field clicked meanwhile keeps it.
    if (back && (focused === dialog || lost)) {
      const usable = back.isConnected && !back.matches(':disabled');
      (usable ? back : dialog.querySelector<HTMLElement>('.dialog-header button'))?.focus();
    }
  }, [ref, busy]);
}
