/**
 * The review's file list: a filter ("/" focuses it), tree or flat layout, a checkbox per file (and
 * per folder) to choose what the next commit writes, conflicts pinned on top, and folder headers
 * that stay pinned while their files scroll by. Drawn virtualized, so 5,000 changed files scroll
 * as smoothly as five. The list is one Tab stop: arrows move inside it, Space toggles the row's
 * checkbox, Enter on a folder folds it (j/k between files are handled by the screen).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { ChangedFile } from '../../../../shared/dto.ts';
import { Icon } from '../../components/icons.tsx';
import { useSlashToFocus } from '../../hooks/use-slash-to-focus.ts';
import { formatNumber } from '../../lib/counts.ts';
import { changeSignature, useReview } from '../../stores/review-store.ts';
import { listKeyAction } from './file-list-keys.ts';
import { DirRow, FileRowView, SectionRow, TriCheckbox } from './file-row-view.tsx';
import { filterChanges, flatRows, stickyFolders, treeRows, type FileRow } from './file-rows.ts';
import { selectionKey, takeWholeIfPartly } from './selection/selection-store.ts';
import './file-panel.css';

const ROW_HEIGHT = 28;

/** Props: all changes, the selected file, and what selecting does. */
export interface FilePanelProps {
  id?: string;
  changes: ChangedFile[];
  selected: string | null;
  onSelect(path: string): void;
  /** Receives the visible file order, for keyboard navigation. */
  onOrder(order: string[]): void;
  /** What the empty list says instead of "no changes yet" (a review scope that shows none). */
  emptyText?: string;
}

/** The file list. */
export function FilePanel({ id, changes, selected, onSelect, onOrder, emptyText }: FilePanelProps): ReactElement {
  const filter = useReview((s) => s.filter);
  const setFilter = useReview((s) => s.setFilter);
  const listMode = useReview((s) => s.listMode);
  const setListMode = useReview((s) => s.setListMode);
  const excluded = useReview((s) => s.excluded);
  const toggle = useReview((s) => s.toggle);
  const setSelected = useReview((s) => s.setSelected);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [activeKey, setActiveKey] = useState<string | null>(selected);
  const filterRef = useRef<HTMLInputElement>(null);
  useSlashToFocus(filterRef);
  const visible = useMemo(() => filterChanges(changes, filter), [changes, filter]);
  const rows = useMemo(
    () => (listMode === 'tree' ? treeRows(visible, collapsed) : flatRows(visible)),
    [visible, listMode, collapsed],
  );
  const order = useMemo(() => rows.flatMap((r) => (r.kind === 'file' ? [r.change.path] : [])), [rows]);
  useEffect(() => onOrder(order), [order, onOrder]);
  useEffect(() => {
    if (selected !== null) setActiveKey(selected);
  }, [selected]);

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

  // The row that holds the list's one Tab stop: the last one moved to, else the selected file.
  const keyed = rows.findIndex((r) => r.key === activeKey);
  const active = keyed >= 0 ? keyed : selectedIndex >= 0 ? selectedIndex : rows.findIndex((r) => r.kind !== 'section');
  const items = virtualizer.getVirtualItems();
  const activeDrawn = items.some((item) => item.index === active);

  const focusRow = useCallback(
    (index: number) => {
      const row = rows[index];
      if (!row) return;
      setActiveKey(row.key);
      virtualizer.scrollToIndex(index, { align: 'auto' });
      // The row may be drawn only after the scroll: try for a few frames.
      let tries = 0;
      const attempt = () => {
        const element = scrollRef.current?.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(row.key)}"]`);
        if (element) element.focus();
        else if (++tries < 4) requestAnimationFrame(attempt);
      };
      requestAnimationFrame(attempt);
    },
    [rows, virtualizer],
  );

  const visiblePaths = visible.map((c) => c.path);
  const chosen = visiblePaths.filter((p) => !excluded[p]).length;
  const allState = chosen === 0 ? false : chosen === visiblePaths.length ? true : 'mixed';
  const setFolded = (path: string, fold: boolean) => {
    const next = new Set(collapsed);
    if (fold) next.add(path);
    else next.delete(path);
    setCollapsed(next);
  };
  const dirPaths = (dir: string) => visible.filter((c) => c.path.startsWith(`${dir}/`)).map((c) => c.path);
  const checkDir = (row: Extract<FileRow, { kind: 'dir' }>) => {
    const paths = dirPaths(row.path);
    setSelected(paths, paths.some((p) => excluded[p]));
  };

  // As a click on its box: a file partly chosen (mixed) is taken whole, not left out.
  const checkFile = (change: ChangedFile) => {
    const { planId, sandboxId } = useReview.getState();
    const partly = planId && sandboxId && !excluded[change.path] && takeWholeIfPartly(selectionKey(planId, sandboxId, change.path), changeSignature(change));
    if (!partly) toggle(change.path);
  };

  const onListKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    // On a row's checkbox (clicked with the mouse) Space is the checkbox's own; arrows move from its row.
    const box = (event.target as HTMLElement).closest('input');
    if (box && event.key === ' ') return;
    const boxKey = box?.closest('.file-row')?.querySelector<HTMLElement>('[data-row-key]')?.dataset.rowKey;
    const from = boxKey === undefined ? active : rows.findIndex((r) => r.key === boxKey);
    const action = listKeyAction(rows, from, event.key);
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    const row = rows[action.index];
    if (!row) return;
    if (action.kind === 'move') {
      if (row.kind === 'file') onSelect(row.change.path);
      focusRow(action.index);
    } else if (action.kind === 'fold' && row.kind === 'dir') setFolded(row.path, !action.open);
    else if (action.kind === 'check') {
      if (row.kind === 'file') checkFile(row.change);
      else if (row.kind === 'dir') checkDir(row);
    }
  };

  const top = Math.floor((virtualizer.scrollOffset ?? 0) / ROW_HEIGHT);
  const pinned = listMode === 'tree' ? stickyFolders(rows, top) : [];
  const scroller = scrollRef.current;
  const scrollbar = scroller ? scroller.offsetWidth - scroller.clientWidth : 0;

  return (
    <div className="file-panel" id={id}>
      <div className="file-panel-tools">
        <div className="search-box">
          <Icon name="search" />
          <input
            ref={filterRef}
            className="input input-search"
            type="search"
            placeholder="Filter files"
            aria-label="Filter files"
            aria-keyshortcuts="/"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            onKeyDown={(event) => {
              // Escape clears the filter, then (pressed again) goes back to the list.
              if (event.key !== 'Escape') return;
              event.preventDefault();
              if (filter) setFilter('');
              else if (active >= 0) focusRow(active);
            }}
          />
          <kbd className="kbd-hint search-kbd" aria-hidden="true">
            /
          </kbd>
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
          tabIndex={0}
          label="Select all files for commit"
          onChange={(on) => setSelected(visiblePaths, on)}
        />
        <span>
          {formatNumber(chosen)} of {formatNumber(visiblePaths.length)} selected
        </span>
        {filter && visible.length !== changes.length && (
          <span className="muted">· {formatNumber(changes.length - visible.length)} hidden by the filter</span>
        )}
      </label>
      <div className="file-list-frame">
        {pinned.length > 0 && (
          <div className="file-list-pinned" style={{ right: scrollbar }} aria-hidden="true">
            {pinned.map((row) => (
              <div key={row.key} className="file-row-slot is-pinned" style={{ height: ROW_HEIGHT }}>
                <DirRow
                  row={row}
                  pinned
                  active={false}
                  chosen={dirPaths(row.path).filter((p) => !excluded[p]).length}
                  onToggle={() => {
                    setFolded(row.path, true);
                    focusRow(rows.findIndex((r) => r.key === row.key));
                  }}
                  onCheck={() => checkDir(row)}
                />
              </div>
            ))}
          </div>
        )}
        <div
          className="file-list"
          ref={scrollRef}
          role="listbox"
          aria-label="Changed files"
          // The list's Tab stop is its active row; when that row is scrolled away, the list itself.
          tabIndex={activeDrawn ? -1 : 0}
          onFocus={(event) => {
            if (event.target === event.currentTarget && active >= 0) focusRow(active);
          }}
          onKeyDown={onListKeyDown}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = rows[item.index] as FileRow;
              return (
                <div
                  key={row.key}
                  className="file-row-slot"
                  style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                >
                  {row.kind === 'section' ? (
                    <SectionRow row={row} />
                  ) : row.kind === 'dir' ? (
                    <DirRow
                      row={row}
                      active={item.index === active}
                      chosen={dirPaths(row.path).filter((p) => !excluded[p]).length}
                      onToggle={() => {
                        setActiveKey(row.key);
                        setFolded(row.path, !row.collapsed);
                      }}
                      onCheck={() => checkDir(row)}
                    />
                  ) : (
                    <FileRowView
                      row={row}
                      selected={row.change.path === selected}
                      active={item.index === active}
                      checked={!excluded[row.change.path]}
                      onSelect={onSelect}
                      onCheck={toggle}
                    />
                  )}
                </div>
              );
            })}
          </div>
          {rows.length === 0 && (
            <p className="file-list-empty muted">
              {changes.length === 0
                ? (emptyText ?? 'No changes yet. They appear here as soon as a file in the sandbox changes.')
                : 'No file matches the filter.'}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
