/**
 * The syntax tokens of one side of a diff: computed at once for small texts (no flash of plain
 * text), in a worker for large ones (no frozen first paint); null until ready or when the file has
 * no known language.
 */
import { useEffect, useMemo, useState } from 'react';
import { highlightInBackground } from './highlight-client.ts';
import { highlightLines } from './highlight.ts';
import type { Language } from './languages.ts';
import type { TokenTable } from './token-table.ts';

/** Texts up to this size are highlighted during render; larger ones in the background. */
export const SYNC_HIGHLIGHT_CHARS = 64 * 1024;

/** Per-line tokens of `text` in `language`, or null (not highlighted, or not yet). */
export function useHighlightedLines(text: string | null, language: Language | null): TokenTable | null {
  const immediate = useMemo(
    () => (text && language && text.length <= SYNC_HIGHLIGHT_CHARS ? highlightLines(text, language) : null),
    [text, language],
  );
  const [background, setBackground] = useState<{
    text: string;
    language: Language;
    lines: TokenTable | null;
  } | null>(null);
  useEffect(() => {
    if (!text || !language || text.length <= SYNC_HIGHLIGHT_CHARS) return undefined;
    const job = highlightInBackground(text, language);
    let live = true;
    void job.promise.then((lines) => {
      if (live) setBackground({ text, language, lines });
    });
    return () => {
      live = false;
      job.cancel();
    };
  }, [text, language]);
  if (immediate) return immediate;
  return background && background.text === text && background.language === language ? background.lines : null;
}
