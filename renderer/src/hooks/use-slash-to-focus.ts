/** "/" focuses the screen's filter, as in GitHub and most developer tools. */
import { useEffect, type RefObject } from 'react';
import { TEXT_ENTRY } from '../lib/text-entry.ts';

/** Focuses `ref` when "/" is typed outside a text field or dialog. */
export function useSlashToFocus(ref: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest(`${TEXT_ENTRY}, dialog[open]`)) return;
      event.preventDefault();
      ref.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [ref]);
}
