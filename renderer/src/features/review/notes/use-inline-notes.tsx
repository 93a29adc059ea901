/**
 * The notes drawn inside a text diff: under the row of a note's last line, a block with the notes
 * and, while one is being written there, the composer. The virtual list gives each such row the
 * block's measured height on top of its own, so rows below move down instead of being covered.
 * Also the `c` key (a note on the focused change) and jumps from the notes panel.
 */
import { Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import type { NoteSide, ReviewNote } from '../../../../../shared/review-dto.ts';
import type { ChangeSpan, DiffRow } from '../diff/diff-rows.ts';
import type { DiffMode } from '../diff/file-diff.ts';
import type { LineDiff } from '../diff/line-diff.ts';
import { TEXT_ENTRY } from '../../../lib/text-entry.ts';
import { diffLineOf, indexRows, linesTitle, nearestRow, notesByRow, rangeForKey, rowOfRange, sideName } from './anchor.ts';
import { NoteCard } from './note-card.tsx';
import { NoteComposer } from './note-composer.tsx';
import { useNotesScope, useScopedNotes } from './notes-context.tsx';

/** A first guess at a block's height until it is measured: a note card, or the composer. */
const NOTE_ESTIMATE = 92;
const COMPOSER_ESTIMATE = 150;

/** What the diff body asks of the notes. */
export interface InlineNotes {
  /** Pixels of notes drawn under row `index` (0 for most). */
  extra(index: number): number;
  /** The block under row `index`, placed at `top`, or null. */
  block(index: number, top: number): ReactNode;
  /** Handles `c` (a note on the focused change, else the first line in view); true when handled. */
  onKeyDown(event: KeyboardEvent<HTMLElement>, focused: ChangeSpan | null, firstVisible: number): boolean;
}

/**
 * The notes of the shown file, laid into the rows of its diff; side by side, each under its own
 * half. `reveal` opens the collapsed run holding a diff line, so a jump to a note there shows it.
 */
export function useInlineNotes(
  rows: DiffRow[],
  diff: LineDiff,
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  mode: DiffMode = 'unified',
  reveal?: (line: number) => void,
): InlineNotes {
  const scope = useNotesScope();
  const notes = useScopedNotes((s) => s.notes);
  const draft = useScopedNotes((s) => s.draft);
  const jump = useScopedNotes((s) => s.jump);
  const startDraft = useScopedNotes((s) => s.startDraft);
  // Measured heights by what a block holds (not by row: expanding context moves rows).
  const [heights, setHeights] = useState<ReadonlyMap<string, number>>(new Map());
  const index = useMemo(() => indexRows(rows, diff), [rows, diff]);
  const here = scope !== null && scope.path !== null;
  const byRow = useMemo((): Map<number, ReviewNote[]> => {
    if (!here) return new Map();
    return notesByRow(
      index,
      notes.filter((n) => n.sandboxId === scope.sandboxId && n.path === scope.path),
    );
  }, [here, index, notes, scope?.sandboxId, scope?.path]);
  const draftRow =
    here && draft?.range && !draft.dragging && draft.sandboxId === scope.sandboxId && draft.path === scope.path
      ? rowOfRange(index, draft.range)
      : null;

  const estimate = (row: number) =>
    (byRow.get(row)?.length ?? 0) * NOTE_ESTIMATE + (row === draftRow ? COMPOSER_ESTIMATE : 0);
  const blockKey = (row: number) =>
    `${(byRow.get(row) ?? []).map((n) => n.id).join(' ')}${row === draftRow ? ' +draft' : ''}`;
  const extra = (row: number) => {
    if (!byRow.has(row) && row !== draftRow) return 0;
    return heights.get(blockKey(row)) ?? estimate(row);
  };
  // The list keeps sizes it computed: tell it when any block's height changes.
  const signature = [...byRow.keys(), ...(draftRow === null ? [] : [draftRow])]
    .map((row) => `${row}:${extra(row)}`)
    .join(',');
  useLayoutEffect(() => {
    virtualizer.measure();
  }, [signature, virtualizer]);

  const measured = useCallback(
    (key: string, height: number) =>
      setHeights((old) => (old.get(key) === height ? old : new Map(old).set(key, height))),
    [],
  );

  const handled = useRef(0);
  const revealed = useRef(0);
  useEffect(() => {
    if (!here || !jump || jump.seq === handled.current) return;
    if (jump.sandboxId !== scope.sandboxId || jump.path !== scope.path) return;
    if (!index[jump.side].has(jump.line) && reveal && revealed.current !== jump.seq) {
      // The line sits in a collapsed run: open it; this runs again with the new rows.
      revealed.current = jump.seq;
      const at = diffLineOf(diff, jump.side, jump.line);
      if (at >= 0) return reveal(at);
    }
    handled.current = jump.seq;
    const row = index[jump.side].get(jump.line) ?? nearestRow(index, jump.side, jump.line);
    if (row === null) return;
    virtualizer.scrollToIndex(row, { align: 'center' });
    // The card may only exist once the list has drawn that row.
    window.setTimeout(() => flash(jump.noteId), 120);
  }, [here, jump, index, diff, reveal, virtualizer, scope?.sandboxId, scope?.path]);

  const block = (row: number, top: number): ReactNode => {
    if (!here) return null;
    const list = byRow.get(row);
    const composing = row === draftRow && draft?.range;
    if (!list && !composing) return null;
    const cell = (side: NoteSide | null) => (
      <div role="cell" className="note-thread" data-side={side ?? undefined}>
        {list?.filter((note) => side === null || note.side === side).map((note) => <NoteCard key={note.id} note={note} />)}
        {composing && draft?.range && (side === null || draft.range.side === side) ? (
          <DraftComposer title={`${linesTitle(draft.range.from, draft.range.to)} (${sideName(draft.range.side)})`} />
        ) : null}
      </div>
    );
    return (
      <NoteBlock key={`notes-${row}`} id={blockKey(row)} top={top} onHeight={measured}>
        {/* Side by side, a note sits under the half whose lines it is on. */}
        {mode === 'split' ? [cell('old'), cell('new')].map((half, i) => <Fragment key={i}>{half}</Fragment>) : cell(null)}
      </NoteBlock>
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, focused: ChangeSpan | null, firstVisible: number) => {
    if (!here || event.key !== 'c' || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
    if ((event.target as HTMLElement).closest?.(TEXT_ENTRY)) return false;
    const range = rangeForKey(rows, diff, focused, firstVisible);
    if (!range) return false;
    event.preventDefault();
    startDraft({ sandboxId: scope.sandboxId, path: scope.path, range });
    const row = rowOfRange(index, range);
    if (row !== null) virtualizer.scrollToIndex(row, { align: 'center' });
    return true;
  };
  return { extra, block, onKeyDown };
}

function DraftComposer({ title }: { title: string }) {
  const body = useScopedNotes((s) => s.draft?.body ?? '');
  const setBody = useScopedNotes((s) => s.setDraftBody);
  const save = useScopedNotes((s) => s.saveDraft);
  const cancel = useScopedNotes((s) => s.cancelDraft);
  const table = (target: HTMLElement | null) =>
    target?.closest?.('.diff-body')?.querySelector<HTMLElement>('.diff-scroll') ?? null;
  const ref = useRef<HTMLDivElement>(null);
  return (
    <div ref={ref}>
      <NoteComposer
        title={title}
        value={body}
        onChange={setBody}
        onSave={async () => {
          // Found before saving: the saved draft's composer leaves the page, and a detached node has no table.
          const scroller = table(ref.current);
          await save();
          scroller?.focus({ preventScroll: true });
        }}
        onCancel={() => {
          table(ref.current)?.focus({ preventScroll: true });
          cancel();
        }}
      />
    </div>
  );
}

function NoteBlock({
  id,
  top,
  onHeight,
  children,
}: {
  id: string;
  top: number;
  onHeight: (id: string, height: number) => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const report = () => onHeight(id, Math.ceil(el.getBoundingClientRect().height));
    report();
    const observer = new ResizeObserver(report);
    observer.observe(el);
    return () => observer.disconnect();
  }, [id, onHeight]);
  return (
    <div ref={ref} className="note-thread-row" role="row" style={{ transform: `translateY(${top}px)` }}>
      {children}
    </div>
  );
}

function flash(noteId: string): void {
  const card = document.querySelector<HTMLElement>(`.note-thread [data-note-id="${CSS.escape(noteId)}"]`);
  if (!card) return;
  card.classList.remove('is-flash');
  void card.offsetWidth;
  card.classList.add('is-flash');
}
