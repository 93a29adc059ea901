/**
 * The text diff's option buttons in its header: find, hide whitespace changes and show the whole
 * file. Each is a toggle (aria-pressed) whose title names its key.
 */
import type { ReactNode } from 'react';
import { SearchIcon, WhitespaceIcon, WholeFileIcon } from './diff-icons.tsx';

/** The state and setters behind the buttons. */
export interface DiffToolsProps {
  findOpen: boolean;
  onFind: () => void;
  hideWhitespace: boolean;
  onHideWhitespace: (on: boolean) => void;
  /** Null hides the button (nothing is collapsed, or the owner shows every line already). */
  wholeFile: boolean | null;
  onWholeFile: (on: boolean) => void;
}

/** Three toggles in a small group. */
export function DiffTools(props: DiffToolsProps) {
  const { findOpen, onFind, hideWhitespace, onHideWhitespace, wholeFile, onWholeFile } = props;
  return (
    <span className="diff-tools" role="group" aria-label="Diff options">
      <Toggle pressed={findOpen} label="Find in diff" keys={'Ctrl+F / \u2318F'} onClick={onFind}>
        <SearchIcon />
      </Toggle>
      <Toggle
        pressed={hideWhitespace}
        label="Hide whitespace changes"
        keys="w"
        onClick={() => onHideWhitespace(!hideWhitespace)}
      >
        <WhitespaceIcon />
      </Toggle>
      {wholeFile !== null ? (
        <Toggle pressed={wholeFile} label="Show the whole file" keys="e" onClick={() => onWholeFile(!wholeFile)}>
          <WholeFileIcon />
        </Toggle>
      ) : null}
    </span>
  );
}

function Toggle({
  pressed,
  label,
  keys,
  onClick,
  children,
}: {
  pressed: boolean;
  label: string;
  keys: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="diff-icon-btn diff-tool"
      aria-pressed={pressed}
      aria-label={label}
      title={`${label} (${keys})`}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
