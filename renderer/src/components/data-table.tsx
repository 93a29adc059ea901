/**
 * The sortable, virtualized data grid every list screen uses: @tanstack/react-table for columns
 * and sorting, @tanstack/react-virtual so only the visible rows exist in the DOM (10,000 rows
 * stay fluid). Filtering happens before the data arrives, in pure functions that are tested.
 */
import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type Header,
  type Row,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { compareValues } from '../lib/compare.ts';
import { Icon } from './icons.tsx';

/** Layout of one column, carried in react-table's `meta`. */
export interface ColumnLayout {
  /** A CSS grid track, e.g. `minmax(160px, 2fr)` or `96px`. */
  width: string;
  className?: string;
}

/** Columns whose meta holds their layout. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- react-table's own column type is heterogeneous by design.
export type GridColumn<T> = ColumnDef<T, any> & { meta: ColumnLayout };

/** Data, columns and what happens on a row. */
export interface DataTableProps<T> {
  label: string;
  data: T[];
  columns: Array<GridColumn<T>>;
  getRowId: (row: T) => string;
  initialSorting?: SortingState;
  selectedId?: string | null;
  onRowClick?: (row: T) => void;
  /**
   * Keeps only the rows it accepts. Applied after sorting, so typing in a filter does not rebuild
   * or re-sort the whole model (10,000 rows stay fluid); pass a stable function per filter value.
   */
  rowFilter?: ((row: T) => boolean) | null;
  /** Shown in place of rows when none are left. */
  empty?: ReactNode;
  rowHeight?: number;
}

const DEFAULT_ROW_HEIGHT = 34;

/** A sortable grid that renders only the rows in view. */
export function DataTable<T>(props: DataTableProps<T>): ReactElement {
  const { label, data, columns, getRowId, initialSorting = [], selectedId, onRowClick, rowFilter, empty, rowHeight = DEFAULT_ROW_HEIGHT } = props;
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const scrollRef = useRef<HTMLDivElement>(null);
  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getRowId: (row) => getRowId(row),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    defaultColumn: { sortingFn: (a, b, id) => compareValues(a.getValue(id), b.getValue(id)) },
  });
  const sorted = table.getRowModel().rows;
  const rows = useMemo(() => (rowFilter ? sorted.filter((row) => rowFilter(row.original)) : sorted), [sorted, rowFilter]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  const template = columns.map((column) => column.meta.width).join(' ');

  return (
    <div className="grid" role="table" aria-label={label} aria-rowcount={rows.length + 1}>
      <div className="grid-scroll" ref={scrollRef}>
        <div role="rowgroup">
          {table.getHeaderGroups().map((group) => (
            <div className="grid-head" role="row" key={group.id} style={{ gridTemplateColumns: template }}>
              {group.headers.map((header) => (
                <HeaderCell key={header.id} header={header} />
              ))}
            </div>
          ))}
        </div>
        {rows.length === 0 ? (
          <div className="grid-empty">{empty}</div>
        ) : (
          <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index];
              if (!row) return null;
              return (
                <GridRow
                  key={row.id}
                  row={row}
                  index={item.index}
                  start={item.start}
                  height={rowHeight}
                  template={template}
                  selected={selectedId === undefined ? undefined : row.id === selectedId}
                  onClick={onRowClick}
                />
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}

interface GridRowProps<T> {
  row: Row<T>;
  index: number;
  start: number;
  height: number;
  template: string;
  selected: boolean | undefined;
  onClick: ((row: T) => void) | undefined;
}

// Rows keep their identity while the data is unchanged, so scrolling renders only the rows that
// come into view; the ones already on screen are skipped.
const GridRow = memo(function GridRow<T>({ row, index, start, height, template, selected, onClick }: GridRowProps<T>): ReactElement {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className="grid-row"
      data-row-id={row.id}
      style={{ gridTemplateColumns: template, height, transform: `translateY(${start}px)` }}
      onClick={onClick ? () => onClick(row.original) : undefined}
    >
      {row.getVisibleCells().map((cell) => {
        const layout = cell.column.columnDef.meta as ColumnLayout | undefined;
        return (
          <div role="cell" key={cell.id} className={layout?.className ? `grid-td ${layout.className}` : 'grid-td'}>
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </div>
        );
      })}
    </div>
  );
}) as <T>(props: GridRowProps<T>) => ReactElement;

function HeaderCell<T>({ header }: { header: Header<T, unknown> }): ReactElement {
  const layout = header.column.columnDef.meta as ColumnLayout | undefined;
  const content = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
  const className = layout?.className ? `grid-th ${layout.className}` : 'grid-th';
  if (!header.column.getCanSort()) {
    return (
      <div role="columnheader" className={className}>
        {content}
      </div>
    );
  }
  const direction = header.column.getIsSorted();
  const ariaSort = direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none';
  return (
    <div role="columnheader" className={className} aria-sort={ariaSort}>
      <button type="button" className="grid-sort" onClick={header.column.getToggleSortingHandler()}>
        {content}
        <Icon name={direction === 'asc' ? 'sortAsc' : direction === 'desc' ? 'sortDesc' : 'sortNone'} size={12} />
      </button>
    </div>
  );
}
