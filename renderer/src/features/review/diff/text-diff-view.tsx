/**
 * A text file's diff: header with counts, navigation, options (find, whitespace, whole file) and
 * the layout toggle; banners for hidden bidirectional characters and line-ending changes; the
 * virtualized body with the find bar floating over it.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { countBidi } from './bidi.ts';
import { DiffBanners } from './diff-banners.tsx';
import { DiffHeader } from './diff-header.tsx';
import { DiffTools } from './diff-tools.tsx';
import type { DiffFile, DiffMode } from './file-diff.ts';
import { displayPath } from './file-diff.ts';
import { fileNotes } from './file-notes.ts';
import { FindBar } from './find-bar.tsx';
import { rowsByLine } from './find.ts';
import { TextDiffBody } from './text-diff-body.tsx';
import { navigationKey, useChangeNavigation } from './use-change-navigation.ts';
import { useFind } from './use-find.ts';
import { useTextDiff } from './use-text-diff.ts';
import { DiffEmpty } from './diff-empty.tsx';
import { useLinePick } from '../selection/use-line-pick.ts';
import { PickNote, pickKey } from '../selection/pick-note.tsx';

interface Props {
  file: DiffFile;
  mode: DiffMode;
  onModeChange: (mode: DiffMode) => void;
  contextLines?: number;
  /** j/k belong to the owner (moving between files): only n/p step through changes here. */
  fileKeys?: boolean;
  /** A step through the changes asked for from outside (a new `seq` is a new step). */
  changeStep?: ChangeStep | null;
  hideWhitespace: boolean;
  onHideWhitespaceChange: (on: boolean) => void;
}

/** A request to move to the next (1) or previous (-1) change; each new `seq` moves once. */
export interface ChangeStep {
  step: 1 | -1;
  seq: number;
}

/**
 * The text diff with its header; keys n/j and p/k move between changes while focus is inside,
 * Ctrl/Cmd+F opens the find bar, w hides whitespace changes and e shows the whole file.
 */
export function TextDiffView(props: Props) {
  const { file, mode, onModeChange, contextLines, fileKeys, changeStep, hideWhitespace, onHideWhitespaceChange } =
    props;
  const [wholeFile, setWholeFile] = useState(false);
  const { diff, model, ctx, columns, eol, eolBanner, reveal } = useTextDiff(
    file,
    mode,
    wholeFile ? Infinity : contextLines,
    hideWhitespace,
  );
  const navigation = useChangeNavigation(model.changes, diff);
  const find = useFind(diff, mode);
  // Only steps asked for while this diff is shown: an older request must not move a new file.
  const seenStep = useRef(changeStep?.seq ?? 0);
  useEffect(() => {
    if (!changeStep || changeStep.seq === seenStep.current) return;
    seenStep.current = changeStep.seq;
    if (changeStep.step > 0) navigation.next();
    else navigation.previous();
  }, [changeStep, navigation]);

  const current = find.open ? find.current : null;
  useEffect(() => {
    if (current) reveal(current.line);
  }, [current, reveal]);
  const lineRows = useMemo(() => rowsByLine(model.rows), [model.rows]);
  const matchRow = current ? (lineRows.get(current.line) ?? -1) : -1;
  const revealTo = useMemo(() => (matchRow >= 0 ? { row: matchRow, seq: find.seq } : null), [matchRow, find.seq]);
  const pick = useLinePick(file, diff, model.rows, hideWhitespace);
  const rowCtx = useMemo(() => {
    const found = find.open && find.hits ? { ...ctx, hits: find.hits, current } : ctx;
    return pick ? { ...found, pick } : found;
  }, [ctx, find.open, find.hits, current, pick]);
  const bidi = useMemo(() => countBidi(diff), [diff]);
  const scrollBack = useRef<HTMLDivElement>(null);
  // A key that swaps the body (the table for the "only whitespace" panel) keeps focus in the viewer.
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    scrollBack.current?.querySelector<HTMLElement>('.diff-scroll, .diff-panel .diff-btn')?.focus();
  }, [hideWhitespace, wholeFile]);

  const notes = [
    ...fileNotes(file),
    ...(eol ? [eol] : []),
    ...(hideWhitespace ? ['whitespace hidden'] : []),
    ...(diff.approximate ? ['approximate diff'] : []),
  ];
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'f') {
      event.preventDefault();
      find.show();
      return;
    }
    const option = optionKey(event);
    if (option) {
      event.preventDefault();
      refocus.current = true;
      if (option === 'whitespace') onHideWhitespaceChange(!hideWhitespace);
      else setWholeFile((on) => !on);
      return;
    }
    if (pickKey(event, pick, model.rows, navigation.focused)) return;
    const action = navigationKey(event, fileKeys);
    if (!action) return;
    event.preventDefault();
    if (action === 'next') navigation.next();
    else navigation.previous();
  };
  const closeFind = () => {
    find.close();
    scrollBack.current?.querySelector<HTMLElement>('.diff-scroll')?.focus();
  };
  const empty = diff.blocks.length === 0;
  const collapsible = !empty && (wholeFile || model.rows.some((row) => row.type !== 'line' && row.type !== 'pair' && row.gap));
  return (
    <div className="diff-text" onKeyDown={onKeyDown} ref={scrollBack}>
      <DiffHeader
        file={file}
        stats={{ additions: diff.additions, deletions: diff.deletions }}
        notes={notes}
        navigation={{
          index: navigation.index,
          count: model.changes.length,
          onNext: navigation.next,
          onPrevious: navigation.previous,
        }}
        mode={empty ? null : mode}
        onModeChange={onModeChange}
        tools={
          <DiffTools
            findOpen={find.open}
            onFind={() => (find.open ? closeFind() : find.show())}
            hideWhitespace={hideWhitespace}
            onHideWhitespace={onHideWhitespaceChange}
            wholeFile={collapsible && Number.isFinite(contextLines ?? 3) ? wholeFile : null}
            onWholeFile={setWholeFile}
          />
        }
      />
      <PickNote pick={pick} path={displayPath(file)} />
      <DiffBanners
        bidi={bidi}
        eol={eolBanner}
        hideWhitespace={hideWhitespace}
        onHideWhitespace={onHideWhitespaceChange}
      />
      {empty ? (
        hideWhitespace && file.oldText != null && file.newText != null && file.oldText !== file.newText ? (
          <WhitespaceOnly onShow={() => onHideWhitespaceChange(false)} />
        ) : (
          <DiffEmpty file={file} hasText />
        )
      ) : (
        <div className="diff-body-wrap">
          <TextDiffBody
            rows={model.rows}
            mode={mode}
            ctx={rowCtx}
            columns={columns}
            focused={navigation.focused}
            scrollTo={navigation.scrollTo}
            revealTo={find.open ? revealTo : null}
            label={`${mode === 'split' ? 'Side-by-side' : 'Unified'} diff of ${displayPath(file)}`}
          />
          {find.open ? (
            <FindBar
              query={find.query}
              onQuery={find.setQuery}
              count={find.count}
              hasMatches={find.hasMatches}
              onNext={find.next}
              onPrevious={find.previous}
              onClose={closeFind}
              focusSeq={find.focusSeq}
            />
          ) : null}
        </div>
      )}
      <div className="diff-sr-only" aria-live="polite">
        {navigation.announcement}
      </div>
    </div>
  );
}

/** The viewer's option keys (plain letters, outside fields): w for whitespace, e for the whole file. */
export function optionKey(event: {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  target: EventTarget | null;
}): 'whitespace' | 'whole-file' | null {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const target = event.target as { closest?: (selector: string) => unknown } | null;
  if (target?.closest?.('input, textarea, select, [contenteditable="true"]')) return null;
  if (event.key === 'w') return 'whitespace';
  if (event.key === 'e') return 'whole-file';
  return null;
}

function WhitespaceOnly({ onShow }: { onShow: () => void }) {
  return (
    <div className="diff-panel-area">
      <div className="diff-panel">
        <div className="diff-panel-title">Only whitespace changed</div>
        <p className="diff-panel-text">With whitespace changes hidden, this file shows no difference.</p>
        <button type="button" className="diff-btn" onClick={onShow}>
          Show whitespace changes
        </button>
      </div>
    </div>
  );
}
