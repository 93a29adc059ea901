/** The optional git commit of a commit dialog: off by default, a message when on. */
import type { ReactElement } from 'react';

/** A checkbox and, when checked, the message field. */
export function GitCommitOption({
  label,
  on,
  message,
  onToggle,
  onMessage,
}: {
  label: string;
  on: boolean;
  message: string;
  onToggle(on: boolean): void;
  onMessage(message: string): void;
}): ReactElement {
  return (
    <div className="git-commit-option">
      <label className="check-item" style={{ padding: 0 }}>
        <input type="checkbox" checked={on} onChange={(event) => onToggle(event.target.checked)} />
        <span>{label}</span>
      </label>
      {on && (
        <textarea
          className="textarea mono"
          aria-label="Commit message"
          placeholder="Commit message"
          rows={3}
          value={message}
          onChange={(event) => onMessage(event.target.value)}
        />
      )}
    </div>
  );
}
