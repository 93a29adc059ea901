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
}

/** Derives the text diff of `file` in `mode`, with `contextLines` of context around changes. */
export function useTextDiff(
  file: DiffFile,
  mode: DiffMode,
  contextLines = DEFAULT_CONTEXT_LINES,
): TextDiffState {
  const oldText = file.oldText ?? '';
  const newText = file.newText ?? '';
  const diff = useMemo(() => computeLineDiff(oldText, newText), [oldText, newText]);
  const baseVisible = useMemo(() => initialVisibility(diff, contextLines), [diff, contextLines]);
  const [expanded, setExpanded] = useState<{ diff: LineDiff; visible: Uint8Array } | null>(null);
  const visible = expanded && expanded.diff === diff ? expanded.visible : baseVisible;
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
      setExpanded({ diff, visible: expandGap(visible, gap, direction) }),
    [diff, visible],
  );
  const ctx = useMemo<RowContext>(
    () => ({ diff, oldTokens, newTokens, words, markCrlf: eol.markLines, onExpand }),
    [diff, oldTokens, newTokens, words, eol.markLines, onExpand],
  );
  return { diff, model, ctx, columns, eol: eol.note };
}
