/**
 * The sticky header of one file's diff: status, path (a rename as old -> new), +/- counts with a
 * small bar, notes on mode, type and line-ending changes, change navigation and the mode toggle.
 * It stays one line at any width (diff-header-narrow.css): the folder part of the path shrinks first,
 * the labels become icons, and in a narrow panel the option buttons (then the layout toggle too)
 * move behind a "More diff options" button.
 */
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { STATUS_LABEL, STATUS_LETTER } from '../../../../../shared/change-kinds.ts';
import { ArrowRightIcon, ChevronDownIcon, ChevronUpIcon, MoreIcon, SplitIcon, UnifiedIcon } from './diff-icons.tsx';
import { displayPath, type DiffFile, type DiffMode } from './file-diff.ts';
import { nounFor } from '../../../lib/counts.ts';
import { formatCount, renameParts } from './format.ts';
import { renameSimilarity } from '../rename-label.ts';
import '../rename-label.css';
import { FileNoteButton } from '../notes/file-note-button.tsx';

/** Change navigation state shown in the header (absent for non-text views). */
export interface HeaderNavigation {
  index: number;
  count: number;
  onPrevious: () => void;
  onNext: () => void;
}

interface Props {
  file: DiffFile;
  stats: { additions: number; deletions: number } | null;
  notes: string[];
  navigation: HeaderNavigation | null;
  mode: DiffMode | null;
  onModeChange: (mode: DiffMode) => void;
  /** The text diff's option buttons (find, whitespace, whole file), before the layout toggle. */
  tools?: ReactNode;
}

/** The file header; `mode` null hides the toggle (binary, image and gated views have one layout). */
export function DiffHeader({ file, stats, notes, navigation, mode, onModeChange, tools }: Props) {
  const likeness = renameSimilarity(file.status, file.similarity);
  const label = likeness ? `${STATUS_LABEL[file.status]}, ${likeness} alike` : STATUS_LABEL[file.status];
  return (
    <header className="diff-header">
      <span className={`diff-status is-${file.status}`} title={label} aria-label={label}>
        {STATUS_LETTER[file.status]}
        {likeness ? <span className="diff-status-similarity"> {likeness}</span> : null}
      </span>
      <h3 className="diff-path">
        <FilePath file={file} />
      </h3>
      {notes.map((note) => (
        <span key={note} className="diff-note">
          {note}
        </span>
      ))}
      <span className="diff-header-spacer" />
      {stats ? <DiffStat additions={stats.additions} deletions={stats.deletions} /> : null}
      {navigation ? <ChangeNavigation {...navigation} /> : null}
      <FileNoteButton />
      <HeaderOptions tools={tools} toggle={mode ? <DiffModeToggle mode={mode} onChange={onModeChange} /> : null} />
    </header>
  );
}

/**
 * The option buttons and the layout toggle. Where the header is narrow (container queries in
 * diff-header-narrow.css) the buttons, and in the narrowest header the toggle too, hide behind "More diff
 * options", which opens a small menu holding them; Esc, a click elsewhere or focus moving out closes it.
 * The menu is drawn only while open, so a control is never twice in the page's accessible tree.
 */
function HeaderOptions({ tools, toggle }: { tools?: ReactNode; toggle: ReactNode }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  const more = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);
  if (!tools && !toggle) return null;
  return (
    <span
      className="diff-header-options"
      ref={box}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        setOpen(false);
        // The focused option is about to leave the page with its menu: keep the keyboard where it was.
        more.current?.focus();
      }}
      onBlur={(event) => {
        // Tabbing past the last option (or a tool moving focus to its own field) closes the menu,
        // so it does not stay drawn over the diff the keyboard has moved on to.
        if (open && !box.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      {tools ? (
        <button
          type="button"
          ref={more}
          className="diff-icon-btn diff-header-more"
          aria-label="More diff options"
          aria-haspopup="true"
          title="More diff options"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          <MoreIcon />
        </button>
      ) : null}
      {open ? (
        <span className="diff-header-menu">
          {tools}
          {toggle}
        </span>
      ) : null}
      <span className="diff-header-inline">
        {tools}
        {toggle}
      </span>
    </span>
  );
}

function FilePath({ file }: { file: DiffFile }): ReactNode {
  if (file.oldPath && file.newPath && file.oldPath !== file.newPath) return <RenamePath oldPath={file.oldPath} newPath={file.newPath} />;
  const path = displayPath(file);
  const slash = path.lastIndexOf('/');
  return (
    <span className="diff-path-parts" title={path}>
      {slash >= 0 ? <span className="diff-path-dir">{path.slice(0, slash + 1)}</span> : null}
      <span className="diff-path-name">{path.slice(slash + 1)}</span>
    </span>
  );
}

/**
 * A rename, "docs/{old-guide.md -> guide/getting-started.md}" as folders and names: the folders
 * (muted) give way first, then the old name, and the new name last (diff-header.css). The widths
 * that order needs are the names' lengths in `ch`: the path is set in the monospace diff font.
 */
function RenamePath({ oldPath, newPath }: { oldPath: string; newPath: string }): ReactNode {
  const parts = renameParts(oldPath, newPath);
  const from = splitFolder(parts.from);
  const to = splitFolder(parts.to);
  const style = { '--rename-new': `${to.name.length}ch` } as CSSProperties;
  return (
    <span className="diff-rename" style={style} aria-label={`${oldPath} renamed to ${newPath}`} title={`${oldPath} \u2192 ${newPath}`}>
      {parts.prefix ? <span className="diff-path-dir">{parts.prefix}</span> : null}
      {from.folder ? <span className="diff-path-dir">{from.folder}</span> : null}
      <span className="diff-path-old">{from.name}</span>
      <span className="diff-rename-arrow">
        <ArrowRightIcon />
      </span>
      {to.folder ? <span className="diff-path-dir">{to.folder}</span> : null}
      <span className="diff-path-name">{to.name}</span>
    </span>
  );
}

/** "guide/getting-started.md" as its folder ("guide/", or "") and its file name. */
function splitFolder(path: string): { folder: string; name: string } {
  const slash = path.lastIndexOf('/');
  return { folder: path.slice(0, slash + 1), name: path.slice(slash + 1) };
}

const STAT_BLOCKS = 5;

const lines = (n: number) => `${formatCount(n)} ${nounFor(n, 'line')}`;

/** "+12 −3" with GitHub's five-block bar of the add/delete ratio. */
export function DiffStat({ additions, deletions }: { additions: number; deletions: number }) {
  const total = additions + deletions;
  const added = total === 0 ? 0 : Math.round((additions / total) * STAT_BLOCKS);
  const removed =
    total === 0 ? 0 : Math.min(STAT_BLOCKS - added, Math.round((deletions / total) * STAT_BLOCKS));
  return (
    <span
      className="diff-stat"
      aria-label={`${lines(additions)} added, ${lines(deletions)} removed`}
    >
      <span className="diff-stat-add">+{formatCount(additions)}</span>
      <span className="diff-stat-del">
        {'\u2212'}
        {formatCount(deletions)}
      </span>
      <span className="diff-stat-bar" aria-hidden="true">
        {Array.from({ length: STAT_BLOCKS }, (_, i) => (
          <span key={i} className={i < added ? 'is-add' : i < added + removed ? 'is-del' : ''} />
        ))}
      </span>
    </span>
  );
}

function ChangeNavigation({ index, count, onPrevious, onNext }: HeaderNavigation) {
  if (count === 0) return null;
  return (
    <span className="diff-nav" role="group" aria-label="Changes">
      <button
        type="button"
        className="diff-icon-btn"
        onClick={onPrevious}
        aria-label="Previous change (p or k)"
        title="Previous change (p)"
      >
        <ChevronUpIcon />
      </button>
      <span className="diff-nav-count" aria-hidden="true">
        {index >= 0
          ? `${formatCount(index + 1)} / ${formatCount(count)}`
          : `${formatCount(count)} ${nounFor(count, 'change')}`}
      </span>
      <button
        type="button"
        className="diff-icon-btn"
        onClick={onNext}
        aria-label="Next change (n or j)"
        title="Next change (n)"
      >
        <ChevronDownIcon />
      </button>
    </span>
  );
}

/** The unified / split switch: a two-option radio group, so arrow keys move between the options. */
export function DiffModeToggle({ mode, onChange }: { mode: DiffMode; onChange: (mode: DiffMode) => void }) {
  const options: Array<[DiffMode, string, ReactNode]> = [
    ['unified', 'Unified', <UnifiedIcon key="icon" />],
    ['split', 'Split', <SplitIcon key="icon" />],
  ];
  return (
    <span className="diff-toggle" role="radiogroup" aria-label="Diff layout">
      {options.map(([value, label, icon]) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={mode === value}
          tabIndex={mode === value ? 0 : -1}
          className="diff-toggle-option"
          title={`${label} layout`}
          onClick={() => onChange(value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
              event.preventDefault();
              onChange(value === 'unified' ? 'split' : 'unified');
            }
          }}
        >
          {icon}
          {/* Hidden, not removed, where the header is narrow: it stays the option's name. */}
          <span className="diff-toggle-label">{label}</span>
        </button>
      ))}
    </span>
  );
}
