/**
 * Writing a note: a text area with Save and Cancel; Ctrl/Cmd+Enter saves and Esc cancels (both
 * kept from the screen's own keys, so Ctrl+Enter never opens the commit dialog from here).
 */
import { useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { ErrorCallout } from '../../../components/error-callout.tsx';

/** Props: the text (kept by the owner), what to do with it, and words for the place. */
export interface NoteComposerProps {
  value: string;
  onChange(value: string): void;
  onSave(): Promise<unknown>;
  onCancel(): void;
  /** What the note is about, shown above the text ("Lines 10-14 of the sandbox"). */
  title?: string;
  saveLabel?: string;
  placeholder?: string;
}

/** The note editor. */
export function NoteComposer(props: NoteComposerProps): ReactElement {
  const { value, onChange, onSave, onCancel, title, saveLabel = 'Save note', placeholder } = props;
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.focus({ preventScroll: true });
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const empty = value.trim().length === 0;
  const save = async () => {
    if (empty || saving) return;
    setSaving(true);
    setError(null);
    try {
      await onSave();
    } catch (caught) {
      setError(caught);
    } finally {
      setSaving(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Typed letters are text: no viewer or screen key may act on them.
    event.stopPropagation();
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  };
  return (
    <div className="note-composer" onMouseDown={(event) => event.stopPropagation()}>
      {title ? <div className="note-composer-title">{title}</div> : null}
      <textarea
        ref={area}
        className="note-textarea"
        aria-label={title ? `Note on ${title}` : 'Note'}
        placeholder={placeholder ?? 'What should the tool change here?'}
        value={value}
        rows={3}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <ErrorCallout error={error} />
      <div className="note-composer-actions">
        <span className="note-hint muted">
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> to save · <kbd>Esc</kbd> to cancel
        </span>
        <button type="button" className="btn btn-sm" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-sm btn-primary"
          disabled={empty || saving}
          title={empty ? 'Write the note first' : undefined}
          onClick={() => void save()}
        >
          {saving ? 'Saving…' : saveLabel}
        </button>
      </div>
    </div>
  );
}
