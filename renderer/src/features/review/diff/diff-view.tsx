/**
 * <DiffView>: one changed file, reviewed. Text files as a unified or side-by-side diff with word
 * and syntax highlights; binary files by size; images side by side; very large diffs behind a
 * "show anyway" gate; and a plain sentence when only the name, mode or type changed.
 */
import { useState } from 'react';
import { BinaryDiff } from './binary-diff.tsx';
import { DiffEmpty } from './diff-empty.tsx';
import { DiffHeader } from './diff-header.tsx';
import { useDiffOptions } from './diff-options.ts';
import type { DiffFile, DiffMode } from './file-diff.ts';
import { displayPath } from './file-diff.ts';
import { fileNotes } from './file-notes.ts';
import { gateReason } from './gate.ts';
import { ImageDiff } from './image-diff.tsx';
import { LargeFileGate } from './large-file-gate.tsx';
import { TextDiffView, type ChangeStep } from './text-diff-view.tsx';
import './diff-theme.css';
import './diff-header.css';
import './diff-header-narrow.css';
import './diff-table.css';
import './diff-panels.css';
import './diff-syntax.css';
import './diff-find.css';
import './diff-images.css';

/** Props of DiffView. `mode` makes the layout controlled; otherwise it starts at `defaultMode`. */
export interface DiffViewProps {
  file: DiffFile;
  mode?: DiffMode;
  defaultMode?: DiffMode;
  onModeChange?: (mode: DiffMode) => void;
  /** Unchanged lines shown around each change (default 3; Infinity shows the whole file). */
  contextLines?: number;
  /**
   * Called by "Show anyway" when the gated file came without its texts; the owner then passes
   * the same file again with oldText/newText. Without it, the gate shows the texts it has.
   */
  onRequestFullText?: () => void;
  className?: string;
  /** j/k move between files in the owner, so only n/p step through changes here. */
  fileKeys?: boolean;
  /** A step through the changes asked for by the owner's keys (a new `seq` moves once). */
  changeStep?: ChangeStep | null;
  /**
   * Compare lines without whitespace (controlled). Without it the viewer uses the remembered
   * option of useDiffOptions, which other features read (partial commits refuse while it is on).
   */
  hideWhitespace?: boolean;
  onHideWhitespaceChange?: (on: boolean) => void;
}

/** The diff of one file; keyed by its paths, so switching files starts fresh. */
export function DiffView(props: DiffViewProps) {
  const { file } = props;
  return <DiffViewContent key={`${file.oldPath ?? ''}\u0000${file.newPath ?? ''}`} {...props} />;
}

function DiffViewContent({
  file,
  mode: controlledMode,
  defaultMode = 'split',
  onModeChange,
  contextLines,
  onRequestFullText,
  className,
  fileKeys,
  changeStep,
  hideWhitespace: controlledWhitespace,
  onHideWhitespaceChange,
}: DiffViewProps) {
  const storedWhitespace = useDiffOptions((s) => s.hideWhitespace);
  const setStoredWhitespace = useDiffOptions((s) => s.setHideWhitespace);
  const hideWhitespace = controlledWhitespace ?? storedWhitespace;
  const changeWhitespace = (on: boolean) => {
    if (controlledWhitespace === undefined) setStoredWhitespace(on);
    onHideWhitespaceChange?.(on);
  };
  const [ownMode, setOwnMode] = useState<DiffMode>(defaultMode);
  const [showAnyway, setShowAnyway] = useState(false);
  const mode = controlledMode ?? ownMode;
  const changeMode = (next: DiffMode) => {
    setOwnMode(next);
    onModeChange?.(next);
  };
  const hasText = file.oldText != null || file.newText != null;
  const reason = gateReason(file);
  const isImage = file.oldImageUrl != null || file.newImageUrl != null;

  let body;
  if (isImage) body = <ImageDiff file={file} />;
  else if (file.binary) body = <BinaryDiff file={file} />;
  else if (reason && (!showAnyway || !hasText)) {
    body = (
      <LargeFileGate
        file={file}
        reason={reason}
        loading={showAnyway && !hasText}
        onShow={() => {
          setShowAnyway(true);
          if (!hasText) onRequestFullText?.();
        }}
      />
    );
  } else if (hasText) {
    return (
      <section className={classes(className)} aria-label={`Changes in ${displayPath(file)}`} data-kind="text">
        <TextDiffView
          file={file}
          mode={mode}
          onModeChange={changeMode}
          contextLines={contextLines}
          fileKeys={fileKeys}
          changeStep={changeStep}
          hideWhitespace={hideWhitespace}
          onHideWhitespaceChange={changeWhitespace}
        />
      </section>
    );
  } else body = <DiffEmpty file={file} hasText={false} />;

  return (
    <section
      className={classes(className)}
      aria-label={`Changes in ${displayPath(file)}`}
      data-kind={isImage ? 'image' : file.binary ? 'binary' : reason ? 'gate' : 'empty'}
    >
      <DiffHeader
        file={file}
        stats={gateStats(file)}
        notes={[...fileNotes(file), ...(file.binary ? ['binary'] : [])]}
        navigation={null}
        mode={null}
        onModeChange={changeMode}
      />
      <div className="diff-panel-area">{body}</div>
    </section>
  );
}

function classes(extra: string | undefined): string {
  return extra ? `diff-view ${extra}` : 'diff-view';
}

/** Counts for a header without a computed diff: the provider's, when it gave them. */
function gateStats(file: DiffFile): { additions: number; deletions: number } | null {
  if (file.binary || (file.additions == null && file.deletions == null)) return null;
  return { additions: file.additions ?? 0, deletions: file.deletions ?? 0 };
}
