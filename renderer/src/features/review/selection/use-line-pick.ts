/**
 * Choosing hunks and lines in a text diff of the review: the patch of the file's two texts (as
 * shared/patch-selection cuts it), what is chosen now, and the toggles the rows call. The review's
 * file checkbox (given through the scope) stays the truth for "whole file" and "left out"; the
 * selection store holds only files partly chosen.
 */
import { useCallback, useMemo, useRef } from 'react';
import { filePatch, hunkState, type ChangeKey, type FilePatch } from '../../../../../shared/patch-selection.ts';
import type { DiffRow } from '../diff/diff-rows.ts';
import type { DiffFile } from '../diff/file-diff.ts';
import type { LineDiff } from '../diff/line-diff.ts';
import { mapLines, rowHunks, type RowHunk } from './line-map.ts';
import { usePartialScope } from './partial-scope.ts';
import { changeKeys, pickBlocked, type SelectionSummary } from './selection-model.ts';
import { entryAt, selectionKey, usePartialSelection } from './selection-store.ts';
import { TextsFingerprintMemo } from './texts-fingerprint-memo.ts';

/** What the rows of a diff need to draw and change the choice. */
export interface LinePick {
  /** Why nothing can be chosen (the controls are drawn disabled with this as their hint), or null. */
  blocked: string | null;
  keys: Array<ChangeKey | null>;
  rows: Array<RowHunk | null>;
  chosen: ReadonlySet<ChangeKey>;
  hunkState(id: number): 'all' | 'none' | 'some';
  /** Toggles a line (by viewer index); with `extend`, every choosable line from the last one toggled. */
  toggleLine(line: number, extend: boolean): void;
  toggleHunk(id: number): void;
  /** The counts of a partly chosen file (null when it is taken whole or left out). */
  summary: SelectionSummary | null;
  /** Takes the whole file again. */
  takeAll(): void;
}

/** The pick state of a text diff, or null outside a review's diff panel. */
export function useLinePick(file: DiffFile, diff: LineDiff, rows: readonly DiffRow[], hideWhitespace: boolean): LinePick | null {
  const given = usePartialScope();
  const key = given ? selectionKey(given.plan, given.sandbox, given.path) : '';
  const version = given?.version ?? null;
  // The owner makes a new scope object on every render: only its contents count.
  const scopePath = given?.path ?? null;
  const scope = useMemo(() => (scopePath === null ? null : { path: scopePath }), [scopePath]);
  const entry = usePartialSelection((s) => (scope ? entryAt(s, key, version) : undefined));
  const excluded = given?.excluded ?? false;
  const setSelected = given?.setSelected;
  const { oldText, newText, binary } = file;
  const exact = diff.exact;
  const patch = useMemo<FilePatch | null>(() => {
    if (binary || (oldText == null && newText == null)) return null;
    try {
      // The viewer's exact line diff is of these same texts: its changes are cut, not made again.
      return filePatch(oldText ?? '', newText ?? '', exact ?? undefined);
    } catch {
      return null; // binary text (NUL bytes): not offered
    }
  }, [oldText, newText, binary, exact]);
  const map = useMemo(() => (patch ? mapLines(diff, patch) : null), [diff, patch]);
  const placed = useMemo(() => (map ? rowHunks(rows, map) : []), [rows, map]);
  const allKeys = useMemo(() => (patch ? changeKeys(patch) : []), [patch]);
  const chosen = useMemo<ReadonlySet<ChangeKey>>(
    () => new Set(entry ? entry.chosen : excluded ? [] : allKeys),
    [entry, excluded, allKeys],
  );
  const anchor = useRef<number | null>(null);
  const fingerprints = useRef<TextsFingerprintMemo | null>(null);

  const apply = useCallback(
    (next: Set<ChangeKey>) => {
      if (!scope || !patch || version === null) return;
      // Sent with the choice: the engine refuses it if the file is no longer these texts. Made on
      // the first choice, not on opening (hashing two large texts would delay every file's paint),
      // and once per pair of texts, not on every click.
      fingerprints.current ??= new TextsFingerprintMemo();
      const texts = fingerprints.current.of(oldText ?? '', newText ?? '');
      const made = usePartialSelection.getState().choose(key, version, patch, next, texts);
      setSelected?.([scope.path], made !== 'none');
    },
    [scope, patch, key, version, setSelected, oldText, newText],
  );
  const blocked = pickBlocked(file, hideWhitespace);
  const toggleLine = useCallback(
    (line: number, extend: boolean) => {
      const target = map?.keys[line];
      if (!map || !target || blocked) return;
      const on = !chosen.has(target);
      const next = new Set(chosen);
      const from = extend && anchor.current !== null ? Math.min(anchor.current, line) : line;
      const to = extend && anchor.current !== null ? Math.max(anchor.current, line) : line;
      for (let i = from; i <= to; i++) {
        const k = map.keys[i];
        if (!k) continue;
        if (on) next.add(k);
        else next.delete(k);
      }
      anchor.current = line;
      apply(next);
    },
    [map, chosen, blocked, apply],
  );
  const toggleHunk = useCallback(
    (id: number) => {
      const hunk = patch?.hunks[id - 1];
      const keys = map?.hunkKeys[id - 1];
      if (!hunk || !keys || blocked) return;
      const on = hunkState(hunk, chosen) !== 'all';
      const next = new Set(chosen);
      for (const k of keys) {
        if (on) next.add(k);
        else next.delete(k);
      }
      apply(next);
    },
    [patch, map, chosen, blocked, apply],
  );
  return useMemo(() => {
    if (!scope || !patch || !map || version === null) return null;
    // Every drawn row of a hunk asks its state: counted once per hunk and choice, not once per row
    // (a 10,000-line added file is one hunk, and its rows asked 10,000 lines each).
    const states = new Map<number, 'all' | 'none' | 'some'>();
    return {
      blocked,
      keys: map.keys,
      rows: placed,
      chosen,
      hunkState: (id: number) => {
        const hunk = patch.hunks[id - 1];
        if (!hunk) return 'none';
        let state = states.get(id);
        if (state === undefined) states.set(id, (state = hunkState(hunk, chosen)));
        return state;
      },
      toggleLine,
      toggleHunk,
      summary: entry?.summary ?? null,
      takeAll: () => {
        usePartialSelection.getState().clear(key);
        setSelected?.([scope.path], true);
      },
    };
  }, [scope, patch, map, version, blocked, placed, chosen, toggleLine, toggleHunk, entry, key, setSelected]);
}
