/** A text file's diff: header with counts, navigation and layout toggle over the virtualized body. */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { DiffHeader } from './diff-header.tsx';
import type { DiffFile, DiffMode } from './file-diff.ts';
import { displayPath } from './file-diff.ts';
import { fileNotes } from './file-notes.ts';
import { TextDiffBody } from './text-diff-body.tsx';
import { navigationKey, useChangeNavigation } from './use-change-navigation.ts';
import { useTextDiff } from './use-text-diff.ts';
import { DiffEmpty } from './diff-empty.tsx';

interface Props {
  file: DiffFile;
  mode: DiffMode;
  onModeChange: (mode: DiffMode) => void;
  contextLines?: number;
  /** j/k belong to the owner (moving between files): only n/p step through changes here. */
  fileKeys?: boolean;
  /** A step through the changes asked for from outside (a new `seq` is a new step). */
  changeStep?: ChangeStep | null;
}

/** A request to move to the next (1) or previous (-1) change; each new `seq` moves once. */
export interface ChangeStep {
  step: 1 | -1;
  seq: number;
}

/** The text diff with its header; keys n/j and p/k move between changes while focus is inside. */
export function TextDiffView({ file, mode, onModeChange, contextLines, fileKeys, changeStep }: Props) {
  const { diff, model, ctx, columns, eol } = useTextDiff(file, mode, contextLines);
  const navigation = useChangeNavigation(model.changes, diff);
  // Only steps asked for while this diff is shown: an older request must not move a new file.
  const seenStep = useRef(changeStep?.seq ?? 0);
  useEffect(() => {
    if (!changeStep || changeStep.seq === seenStep.current) return;
    seenStep.current = changeStep.seq;
    if (changeStep.step > 0) navigation.next();
    else navigation.previous();
  }, [changeStep, navigation]);
  const notes = [
    ...fileNotes(file),
    ...(eol ? [eol] : []),
    ...(diff.approximate ? ['approximate diff'] : []),
  ];
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const action = navigationKey(event, fileKeys);
    if (!action) return;
    event.preventDefault();
    if (action === 'next') navigation.next();
    else navigation.previous();
  };
  const empty = diff.blocks.length === 0;
  return (
    <div className="diff-text" onKeyDown={onKeyDown}>
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
      />
      {empty ? (
        <DiffEmpty file={file} hasText />
      ) : (
        <TextDiffBody
          rows={model.rows}
          mode={mode}
          ctx={ctx}
          columns={columns}
          focused={navigation.focused}
          scrollTo={navigation.scrollTo}
          label={`${mode === 'split' ? 'Side-by-side' : 'Unified'} diff of ${displayPath(file)}`}
        />
      )}
      <div className="diff-sr-only" aria-live="polite">
        {navigation.announcement}
      </div>
    </div>
  );
}
