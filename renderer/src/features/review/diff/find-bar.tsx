/**
 * The find bar floating over a text diff: a field, "3 of 12", previous and next, close.
 * Enter and Shift+Enter move between matches; Esc closes and gives focus back to the diff.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { ChevronDownIcon, ChevronUpIcon, CloseIcon, SearchIcon } from './diff-icons.tsx';

/** Props of FindBar; `focusSeq` changes each time the owner asks for focus (Ctrl+F again). */
export interface FindBarProps {
  query: string;
  onQuery: (query: string) => void;
  count: string;
  hasMatches: boolean;
  onNext: () => void;
  onPrevious: () => void;
  onClose: () => void;
  focusSeq: number;
}

/** The find bar. */
export function FindBar({ query, onQuery, count, hasMatches, onNext, onPrevious, onClose, focusSeq }: FindBarProps) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [focusSeq]);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (event.shiftKey) onPrevious();
      else onNext();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };
  return (
    <div className="diff-find" role="search" aria-label="Find in diff">
      <span className="diff-find-icon" aria-hidden="true">
        <SearchIcon />
      </span>
      <input
        ref={input}
        className="diff-find-input"
        type="text"
        spellCheck={false}
        autoComplete="off"
        placeholder="Find in diff"
        aria-label="Find in diff"
        value={query}
        onChange={(event) => onQuery(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <span
        className={`diff-find-count${query && !hasMatches ? ' is-none' : ''}`}
        role="status"
        aria-live="polite"
      >
        {count}
      </span>
      <span className="diff-find-sep" aria-hidden="true" />
      <button
        type="button"
        className="diff-icon-btn"
        aria-label="Previous match (Shift+Enter)"
        title="Previous match (Shift+Enter)"
        disabled={!hasMatches}
        onClick={onPrevious}
      >
        <ChevronUpIcon />
      </button>
      <button
        type="button"
        className="diff-icon-btn"
        aria-label="Next match (Enter)"
        title="Next match (Enter)"
        disabled={!hasMatches}
        onClick={onNext}
      >
        <ChevronDownIcon />
      </button>
      <button
        type="button"
        className="diff-icon-btn"
        aria-label="Close find (Esc)"
        title="Close (Esc)"
        onClick={onClose}
      >
        <CloseIcon />
      </button>
    </div>
  );
}
