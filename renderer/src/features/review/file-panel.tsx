/**
 * The review's file list: a filter, tree or flat layout, a checkbox per file (and per folder) to
 * choose what the next commit writes, status letters, +/- counts and conflict badges. Drawn
 * virtualized, so 5,000 changed files scroll as smoothly as five. ArrowUp/Down and j/k move the
 * selection (handled by the screen); Enter on a folder folds it.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import type { ChangedFile } from '../../../../shared/dto.ts';
import { Icon } from '../../components/icons.tsx';
import { useReview } from '../../stores/review-store.ts';
import { filterChanges, flatRows, STATUS_LETTER, treeRows, type FileRow } from './file-rows.ts';
import './file-panel.css';

const ROW_HEIGHT = 28;

/** Props: all changes, the selected file, and what selecting does. */
export interface FilePanelProps {
  changes: ChangedFile[];
  selected: string | null;
  onSelect(path: string): void;
  /** Receives the visible file order, for keyboard navigation. */
  onOrder(order: string[]): void;
}

/** The file list. */
export function FilePanel({ changes, selected, onSelect, onOrder }: FilePanelProps): ReactElement {
  const filter = useReview((s) => s.filter);
  const setFilter = useReview((s) => s.setFilter);
  const listMode = useReview((s) => s.listMode);
  const setListMode = useReview((s) => s.setListMode);
  const excluded = useReview((s) => s.excluded);
  const toggle = useReview((s) => s.toggle);
  const setSelected = useReview((s) => s.setSelected);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const visible = useMemo(() => filterChanges(changes, filter), [changes, filter]);
  const rows = useMemo(
    () => (listMode === 'tree' ? treeRows(visible, collapsed) : flatRows(visible)),
    [visible, listMode, collapsed],
  );
  const order = useMemo(() => rows.flatMap((r) => (r.kind === 'file' ? [r.change.path] : [])), [rows]);
  useEffect(() => onOrder(order), [order, onOrder]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });
  const selectedIndex = rows.findIndex((r) => r.kind === 'file' && r.change.path === selected);
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  const visiblePaths = visible.map((c) => c.path);
  const chosen = visiblePaths.filter((p) => !excluded[p]).length;
  const allState = chosen === 0 ? false : chosen === visiblePaths.length ? true : 'mixed';
  const toggleDir = (path: string) => {
    const next = new Set(collapsed);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    setCollapsed(next);
  };
  const dirPaths = (dir: string) => visible.filter((c) => c.path.startsWith(`${dir}/`)).map((c) => c.path);

  return (
    <div className="file-panel">
      <div className="file-panel-tools">
        <div className="search-box">
          <Icon name="search" />
          <input
            className="input input-search"
            type="search"
            placeholder="Filter files"
            aria-label="Filter files"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
        </div>
        <span className="segmented" role="radiogroup" aria-label="File list layout">
          {(['tree', 'flat'] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              role="radio"
              aria-checked={listMode === mode}
              className="segmented-option"
              onClick={() => setListMode(mode)}
            >
              {mode === 'tree' ? 'Tree' : 'Flat'}
            </button>
          ))}
        </span>
      </div>
      <label className="file-panel-all">
        <TriCheckbox
          state={allState}
          label="Select all files for commit"
          onChange={(on) => setSelected(visiblePaths, on)}
        />
        <span>
          {chosen} of {visiblePaths.length} selected
        </span>
        {filter && visible.length !== changes.length && (
          <span className="muted">· {changes.length - visible.length} hidden by the filter</span>
        )}
      </label>
      <div className="file-list" ref={scrollRef} role="listbox" aria-label="Changed files" tabIndex={-1}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index] as FileRow;
            return (
              <div
                key={row.key}
                className="file-row-slot"
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              >
                {row.kind === 'dir' ? (
                  <DirRow
                    row={row}
                    chosen={dirPaths(row.path).filter((p) => !excluded[p]).length}
                    onToggle={() => toggleDir(row.path)}
                    onCheck={(on) => setSelected(dirPaths(row.path), on)}
                  />
                ) : (
                  <FileRowView
                    row={row}
                    selected={row.change.path === selected}
                    checked={!excluded[row.change.path]}
                    onSelect={onSelect}
                    onCheck={toggle}
                    flat={listMode === 'flat'}
                  />
                )}
              </div>
            );
          })}
        </div>
        {rows.length === 0 && (
          <p className="file-list-empty muted">
            {changes.length === 0
              ? 'No changes yet. They appear here as soon as a file in the sandbox changes.'
              : 'No file matches the filter.'}
          </p>
        )}
      </div>
    </div>
  );
}

const DirRow = memo(function DirRow({
  row,
  chosen,
  onToggle,
  onCheck,
}: {
  row: Extract<FileRow, { kind: 'dir' }>;
  chosen: number;
  onToggle(): void;
  onCheck(on: boolean): void;
}) {
  return (
    <div className="file-row is-dir" style={{ paddingLeft: 8 + row.depth * 14 }}>
      <TriCheckbox
        state={chosen === 0 ? false : chosen === row.files ? true : 'mixed'}
        label={`Select ${row.path} for commit`}
        onChange={onCheck}
      />
      <button type="button" className="file-row-dir" aria-expanded={!row.collapsed} onClick={onToggle}>
        <span className={row.collapsed ? 'chevron is-collapsed' : 'chevron'} aria-hidden="true">
          ▾
        </span>
        <Icon name="folder" size={14} />
        <span className="file-row-name">{row.name}</span>
      </button>
      {row.conflicts > 0 && (
        <span className="conflict-badge" title={`${row.conflicts} in conflict`}>
          {row.conflicts}
        </span>
      )}
      <span className="file-row-count">{row.files}</span>
    </div>
  );
});

interface FileRowViewProps {
  row: Extract<FileRow, { kind: 'file' }>;
  selected: boolean;
  checked: boolean;
  flat: boolean;
  onSelect(path: string): void;
  onCheck(path: string): void;
}

const FileRowView = memo(function FileRowView({
  row,
  selected,
  checked,
  flat,
  onSelect,
  onCheck,
}: FileRowViewProps) {
  const { change } = row;
  const conflict = change.drift === 'conflict';
  const applied = change.drift === 'applied';
  const slash = change.path.lastIndexOf('/');
  return (
    <div
      className={`file-row${selected ? ' is-selected' : ''}${applied ? ' is-applied' : ''}`}
      style={{ paddingLeft: 8 + row.depth * 14 }}
    >
      <input
        type="checkbox"
        checked={checked}
        aria-label={`Commit ${change.path}`}
        onChange={() => onCheck(change.path)}
      />
      <button
        type="button"
        role="option"
        aria-selected={selected}
        className="file-row-main"
        data-path={change.path}
        title={change.oldPath ? `${change.oldPath} → ${change.path}` : change.path}
        onClick={() => onSelect(change.path)}
      >
        <span className={`status-letter is-${change.kind}`} aria-label={change.kind.replace('_', ' ')}>
          {STATUS_LETTER[change.kind]}
        </span>
        <span className="file-row-name">
          {flat && slash >= 0 && <span className="file-row-dir-part">{change.path.slice(0, slash + 1)}</span>}
          {row.name}
          {change.oldPath && (
            <span className="file-row-old">
              {' '}
              ← {change.oldPath.slice(change.oldPath.lastIndexOf('/') + 1)}
            </span>
          )}
        </span>
      </button>
      {conflict && (
        <span className="conflict-badge" title={(change.special ? change.driftReason : change.unreadable) ?? change.driftReason ?? 'Changed in the original too'}>
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
              <span className="diff-stat-add">+{change.additions}</span>
            )}
            {change.deletions !== null && change.deletions > 0 && (
              <span className="diff-stat-del">−{change.deletions}</span>
            )}
          </>
        )}
      </span>
    </div>
  );
});

function TriCheckbox({
  state,
  label,
  onChange,
}: {
  state: boolean | 'mixed';
  label: string;
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
      aria-label={label}
      checked={state === true}
      aria-checked={state === 'mixed' ? 'mixed' : state}
      onChange={() => onChange(state !== true)}
    />
  );
}
