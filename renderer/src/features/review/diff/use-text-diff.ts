/**
 * Everything a text diff renders from, derived from the file and the layout: the line diff, which
 * unchanged lines are expanded, the rows, syntax tokens, word lookups and line-ending notes.
 * Expansion state belongs to one diff: new texts start collapsed again.
 */
import { useCallback, useMemo, useState } from 'react';
import { MAX_RENDERED_CHARS, type RowContext } from './diff-row.tsx';
import {
  buildRows,
  DEFAULT_CONTEXT_LINES,
  expandGap,
  initialVisibility,
  type ExpandDirection,
  type Gap,
  type RowModel,
} from './diff-rows.ts';
import type { DiffFile, DiffMode } from './file-diff.ts';
import { eolNote } from './file-notes.ts';
import { revealLine } from './find.ts';
import { languageForPath } from './languages.ts';
import { computeLineDiff, type LineDiff } from './line-diff.ts';
import { displayColumns } from './text-lines.ts';
import { useHighlightedLines } from './use-highlighted-lines.ts';
import { wordLookup } from './word-lookup.ts';

/** The derived state of a text diff. */
export interface TextDiffState {
  diff: LineDiff;
  model: RowModel;
  ctx: RowContext;
  columns: number;
  eol: string | null;
  /** "Line endings changed from CRLF to LF" when the whole file switched, else null. */
  eolBanner: string | null;
  /** Shows a line (and a little context) that may sit in a collapsed run. */
  reveal: (line: number) => void;
}

/**
 * Derives the text diff of `file` in `mode`, with `contextLines` of context around changes;
 * `hideWhitespace` compares lines without their whitespace, as `git diff -w`.
 */
export function useTextDiff(
  file: DiffFile,
  mode: DiffMode,
  contextLines = DEFAULT_CONTEXT_LINES,
  hideWhitespace = false,
): TextDiffState {
  const oldText = file.oldText ?? '';
  const newText = file.newText ?? '';
  const diff = useMemo(
    () => computeLineDiff(oldText, newText, { ignoreWhitespace: hideWhitespace }),
    [oldText, newText, hideWhitespace],
  );
  const baseVisible = useMemo(() => initialVisibility(diff, contextLines), [diff, contextLines]);
  // Expansion holds for one diff and one context setting; either changing starts collapsed again.
  const [expanded, setExpanded] = useState<Expanded | null>(null);
  const visible =
    expanded && expanded.diff === diff && expanded.base === baseVisible ? expanded.visible : baseVisible;
  const model = useMemo(() => buildRows(diff, visible, mode), [diff, visible, mode]);

  const language = languageForPath(file.newPath ?? file.oldPath);
  const oldTokens = useHighlightedLines(oldText || null, language);
  const newTokens = useHighlightedLines(newText || null, language);
  const words = useMemo(() => wordLookup(diff), [diff]);
  // Lines are drawn up to MAX_RENDERED_CHARS (plus a short marker), so the width never needs more.
  const columns = useMemo(
    () =>
      diff.lines.reduce(
        (max, line) =>
          Math.max(max, displayColumns(line.text.slice(0, MAX_RENDERED_CHARS)) + (line.noEol ? 30 : 0)),
        0,
      ),
    [diff],
  );
  const eol = useMemo(() => eolNote(diff.oldEol, diff.newEol), [diff]);

  const onExpand = useCallback(
    (gap: Gap, direction: ExpandDirection) =>
      setExpanded({ diff, base: baseVisible, visible: expandGap(visible, gap, direction) }),
    [diff, baseVisible, visible],
  );
  const reveal = useCallback(
    (line: number) =>
      setExpanded((prev) => {
        const now = prev && prev.diff === diff && prev.base === baseVisible ? prev.visible : baseVisible;
        const next = revealLine(now, line);
        return next === now ? prev : { diff, base: baseVisible, visible: next };
      }),
    [diff, baseVisible],
  );
  const ctx = useMemo<RowContext>(
    () => ({ diff, oldTokens, newTokens, words, markCrlf: eol.markLines, onExpand, reveal, hits: null, current: null }),
    [diff, oldTokens, newTokens, words, eol.markLines, onExpand, reveal],
  );
  return { diff, model, ctx, columns, eol: eol.note, eolBanner: eol.banner, reveal };
}

interface Expanded {
  diff: LineDiff;
  base: Uint8Array;
  visible: Uint8Array;
}
