/**
 * The rows of the review's file list: a folder (fold it, choose its files for commit), a file
 * (status letter, muted folder part and bold name, badges, +/- counts) and a section heading
 * ("Conflicts" pinned above the rest). Only the active row is a Tab stop (roving tabindex); the
 * checkboxes are reached with Space on their row, so a list is one Tab stop however long.
 */
import { memo, useEffect, useRef, type ReactElement } from 'react';
import { Icon } from '../../components/icons.tsx';
import { formatCount, formatNumber } from '../../lib/counts.ts';
import { STATUS_LETTER, type FileRow } from './file-rows.ts';
import { renameSimilarity } from './rename-label.ts';
import { usePartlyChosen } from './selection/use-partly-chosen.ts';
import { ViewedToggle } from './review-state/viewed-toggle.tsx';
import './rename-label.css';

type DirRowData = Extract<FileRow, { kind: 'dir' }>;
type FileRowData = Extract<FileRow, { kind: 'file' }>;
type SectionRowData = Extract<FileRow, { kind: 'section' }>;

/** Left padding of a row at a tree depth. */
export function rowIndent(depth: number): number {
  return 8 + depth * 14;
}

/** A section heading ("Conflicts", "Changes"). */
export function SectionRow({ row }: { row: SectionRowData }): ReactElement {
  const conflicts = row.key === '\u0000conflicts';
  return (
    <div className={conflicts ? 'file-section is-conflicts' : 'file-section'} role="presentation">
      {conflicts && <Icon name="alert" size={12} />}
      <span>{row.name}</span>
      <span className="file-row-count">{formatNumber(row.count)}</span>
    </div>
  );
}

/** Props of a folder row. */
export interface DirRowProps {
  row: DirRowData;
  chosen: number;
  active: boolean;
  /** Drawn as a pinned header above the scrolled list (not a Tab stop, not an option). */
  pinned?: boolean;
  onToggle(): void;
  onCheck(on: boolean): void;
}

/** A folder: checkbox for all its files, fold button, conflict badge and file count. */
export const DirRow = memo(function DirRow({ row, chosen, active, pinned, onToggle, onCheck }: DirRowProps) {
  return (
    <div className={`file-row is-dir${active ? ' is-active' : ''}`} style={{ paddingLeft: rowIndent(row.depth) }}>
      <TriCheckbox
        state={chosen === 0 ? false : chosen === row.files ? true : 'mixed'}
        label={`Select ${row.path} for commit`}
        onChange={onCheck}
      />
      <button
        type="button"
        className="file-row-dir"
        aria-expanded={!row.collapsed}
        data-row-key={pinned ? undefined : row.key}
        tabIndex={active && !pinned ? 0 : -1}
        title={row.path}
        onClick={onToggle}
      >
        <span className={row.collapsed ? 'chevron is-collapsed' : 'chevron'} aria-hidden="true">
          ▾
        </span>
        <Icon name="folder" size={14} />
        <span className="file-row-name">{row.name}</span>
      </button>
      {row.conflicts > 0 && (
        <span className="conflict-badge" title={`${formatCount(row.conflicts, 'file')} in conflict`}>
          {formatNumber(row.conflicts)}
        </span>
      )}
      <span className="file-row-count" title={formatCount(row.files, 'changed file')}>
        {formatNumber(row.files)}
      </span>
    </div>
  );
});

/** Props of a file row. */
export interface FileRowViewProps {
  row: FileRowData;
  selected: boolean;
  checked: boolean;
  active: boolean;
  onSelect(path: string): void;
  onCheck(path: string): void;
}

/** A file: checkbox, status letter, folder part and name, badges and line counts. */
export const FileRowView = memo(function FileRowView({
  row,
  selected,
  checked,
  active,
  onSelect,
  onCheck,
}: FileRowViewProps) {
  const { change } = row;
  const conflict = change.drift === 'conflict';
  const applied = change.drift === 'applied';
  const likeness = renameSimilarity(change.kind, change.similarity);
  // Some hunks or lines chosen: mixed; a click takes the whole file again (as GitHub Desktop does).
  const partly = usePartlyChosen(change);
  return (
    <div
      className={`file-row${selected ? ' is-selected' : ''}${active ? ' is-active' : ''}${applied ? ' is-applied' : ''}`}
      style={{ paddingLeft: rowIndent(row.depth) }}
    >
      <TriCheckbox
        state={checked ? (partly ? 'mixed' : true) : false}
        label={`Commit ${change.path}`}
        onChange={() => (checked && partly ? partly.takeAll() : onCheck(change.path))}
      />
      <button
        type="button"
        role="option"
        aria-selected={selected}
        aria-keyshortcuts="Space"
        className="file-row-main"
        data-path={change.path}
        data-row-key={row.key}
        tabIndex={active ? 0 : -1}
        title={change.oldPath ? `${change.oldPath} → ${change.path}` : change.path}
        onClick={() => onSelect(change.path)}
      >
        <span className={`status-letter is-${change.kind}`} aria-label={[change.kind.replace('_', ' '), likeness].filter(Boolean).join(' ')}>
          {STATUS_LETTER[change.kind]}
          {likeness && <span className="status-similarity"> {likeness}</span>}
        </span>
        <span className="file-row-path">
          {row.folder && <span className="file-row-folder">{row.folder}</span>}
          <span className="file-row-file">{row.name}</span>
          {change.oldPath && (
            <span className="file-row-old">← {change.oldPath.slice(change.oldPath.lastIndexOf('/') + 1)}</span>
          )}
        </span>
      </button>
      {conflict && (
        <span
          className="conflict-badge"
          title={(change.special ? change.driftReason : change.unreadable) ?? change.driftReason ?? 'Changed in the original too'}
        >
          {change.special ? `${change.special}: not committed` : change.unreadable ? 'unreadable' : 'conflict'}
        </span>
      )}
      {applied && (
        <span className="applied-badge" title="The original already has this change">
          in original
        </span>
      )}
      <span className="file-row-stats">
        {change.binary ? (
          <span className="muted">bin</span>
        ) : (
          <>
            {change.additions !== null && change.additions > 0 && (
              <span className="diff-stat-add">+{formatNumber(change.additions)}</span>
            )}
            {change.deletions !== null && change.deletions > 0 && (
              <span className="diff-stat-del">−{formatNumber(change.deletions)}</span>
            )}
          </>
        )}
      </span>
      <ViewedToggle path={change.path} />
    </div>
  );
});

/** A checkbox with a third, mixed state (some of a folder's files chosen). */
export function TriCheckbox({
  state,
  label,
  tabIndex = -1,
  onChange,
}: {
  state: boolean | 'mixed';
  label: string;
  /** -1 inside the list (Space on the row toggles it); 0 where it is a control of its own. */
  tabIndex?: number;
  onChange(on: boolean): void;
}): ReactElement {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'mixed';
  }, [state]);
  return (
    <input
      ref={ref}
      type="checkbox"
      tabIndex={tabIndex}
      aria-label={label}
      checked={state === true}
      aria-checked={state === 'mixed' ? 'mixed' : state}
      onChange={() => onChange(state !== true)}
    />
  );
}
