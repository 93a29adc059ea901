/**
 * A link's alias, edited in place: click (or Enter on the button) to edit, Enter saves, Escape
 * cancels, an empty value clears the alias. A refusal (duplicate, bad characters) shows below.
 */
import { useState, type KeyboardEvent, type ReactElement } from 'react';
import { errorMessage } from '../../lib/errors.ts';

/** The inline editor; `onSave` throws to refuse. */
export function AliasEditor({ alias, label, onSave }: { alias: string | null; label: string; onSave: (alias: string | null) => Promise<void> }): ReactElement {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(alias ?? '');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const next = value.trim() || null;
    if (next === alias) {
      setEditing(false);
      return;
    }
    setBusy(true);
    try {
      await onSave(next);
      setEditing(false);
      setError(null);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setValue(alias ?? '');
      setError(null);
      setEditing(false);
    }
  };

  if (!editing) {
    return (
      <button
        type="button"
        className={alias ? 'alias-button mono' : 'alias-button alias-empty'}
        aria-label={`${label}: ${alias ?? 'no alias'}. Edit`}
        onClick={() => {
          setValue(alias ?? '');
          setEditing(true);
        }}
      >
        {alias ?? 'add alias'}
      </button>
    );
  }
  return (
    <div className="alias-editor">
      <input
        className="input mono input-inline"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        value={value}
        placeholder="slot name, e.g. repo"
        autoFocus
        disabled={busy}
        spellCheck={false}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={onKey}
        onBlur={() => {
          if (!error) void save();
        }}
      />
      {error !== null && (
        <div className="field-error" role="alert">
          {errorMessage(error)}
        </div>
      )}
    </div>
  );
}
