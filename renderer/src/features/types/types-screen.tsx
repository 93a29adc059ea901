/** The resource types screen: every type with its parents, handler and strategy; add, edit, remove. */
import { useMemo, useState, type ReactElement } from 'react';
import type { ResourceTypeSpec } from '../../../../shared/model.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { DataTable, type GridColumn } from '../../components/data-table.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { STRATEGY_LABELS } from '../../lib/labels.ts';
import { typeCounts } from '../../lib/resource-filter.ts';
import { useResources } from '../../stores/resources-store.ts';
import { useTypes } from '../../stores/types-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { TypeDialog } from './type-dialog.tsx';

type Editing = { mode: 'add' } | { mode: 'edit'; type: ResourceTypeSpec } | null;

/** Lists resource types and hosts their dialogs. */
export function TypesScreen(): ReactElement {
  const { items, status, error, remove } = useTypes();
  const toast = useUi((state) => state.toast);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<ResourceTypeSpec | null>(null);
  const resources = useResources((state) => state.items);
  const usage = useMemo(() => new Map(typeCounts(resources).map((entry) => [entry.typeName, entry.count])), [resources]);

  const columns = useMemo<Array<GridColumn<ResourceTypeSpec>>>(
    () => [
      {
        id: 'name',
        accessorKey: 'name',
        header: 'Name',
        meta: { width: 'minmax(220px, 1.6fr)', className: 'two-line' },
        cell: ({ row }) => (
          <>
            <span className="cell-line">
              <span className="mono name-cell truncate">{row.original.name}</span>
              {row.original.builtIn && <span className="badge badge-accent">built-in</span>}
            </span>
            <span className="cell-line muted truncate" title={row.original.description}>
              {row.original.description || 'No description.'}
            </span>
          </>
        ),
      },
      {
        id: 'parents',
        header: 'Parent types',
        accessorFn: (type) => type.parentTypes.join(', '),
        meta: { width: 'minmax(140px, 1fr)' },
        cell: ({ row }) =>
          row.original.parentTypes.length === 0 ? (
            <span className="faint">none</span>
          ) : (
            <span className="chips" title={row.original.parentTypes.join(', ')}>
              {row.original.parentTypes.map((parent) => (
                <span className="chip" key={parent}>
                  {parent}
                </span>
              ))}
            </span>
          ),
      },
      {
        id: 'handler',
        header: 'Handler',
        accessorFn: (type) => type.handler ?? '',
        meta: { width: 'minmax(200px, 1.9fr)' },
        cell: ({ row }) => <HandlerCell type={row.original} />,
      },
      {
        id: 'strategy',
        accessorKey: 'sandboxStrategy',
        header: 'Sandbox strategy',
        meta: { width: '164px' },
        cell: ({ row }) => <span>{STRATEGY_LABELS[row.original.sandboxStrategy]}</span>,
      },
      {
        id: 'resources',
        header: 'Resources',
        accessorFn: (type) => usage.get(type.name) ?? 0,
        meta: { width: '96px', className: 'numeric' },
        cell: ({ getValue }) => <span className={getValue() ? undefined : 'faint'}>{String(getValue())}</span>,
      },
      {
        id: 'actions',
        header: () => <span className="visually-hidden">Actions</span>,
        enableSorting: false,
        meta: { width: '72px', className: 'grid-actions' },
        cell: ({ row }) => (
          <>
            <button type="button" className="btn btn-ghost btn-icon btn-sm" aria-label={`Edit ${row.original.name}`} onClick={() => setEditing({ mode: 'edit', type: row.original })}>
              <Icon name="edit" />
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-icon btn-sm"
              aria-label={`Remove ${row.original.name}`}
              disabled={row.original.builtIn}
              title={row.original.builtIn ? 'Built-in types cannot be removed' : undefined}
              onClick={() => setRemoving(row.original)}
            >
              <Icon name="trash" />
            </button>
          </>
        ),
      },
    ],
    [usage],
  );

  return (
    <div className="page">
      <PageHeader
        title="Resource types"
        subtitle="What kinds of resources exist, how they are sandboxed, and which types can stand in for others."
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setEditing({ mode: 'add' })}>
            <Icon name="plus" /> Add type
          </button>
        }
      />
      {status === 'error' && <ErrorCallout error={error} onRetry={() => void useTypes.getState().refresh()} />}
      <DataTable
        label="Resource types"
        data={items}
        columns={columns}
        getRowId={(type) => type.name}
        initialSorting={[]}
        rowHeight={48}
        empty={
          <EmptyState icon="layers" title={status === 'ready' ? 'No resource types' : 'Loading types…'}>
            {status === 'ready' && 'The built-in types git-checkout and fs-directory should always be here; their absence means the database was changed outside Bindery.'}
          </EmptyState>
        }
      />
      {items.length > 0 && (
        <div className="callout" role="note">
          <Icon name="info" />
          <span>
            A resource can fill any slot that asks for its type or one of its parent types (and their parents). Custom handlers are ES modules in the{' '}
            <code>handlers</code> folder of the data directory; Bindery runs them with your full permissions, so only use handlers you trust.
          </span>
        </div>
      )}
      {editing && <TypeDialog type={editing.mode === 'edit' ? editing.type : null} types={items} onClose={() => setEditing(null)} />}
      {removing && (
        <ConfirmDialog
          title={`Remove type ${removing.name}?`}
          message={
            <>
              The type <code>{removing.name}</code> will be removed from the registry. Types still used by resources, sub-types or tool slots cannot be removed:
              change those first.
            </>
          }
          confirmLabel="Remove type"
          onConfirm={async () => {
            await remove(removing.name);
            toast(`Removed type ${removing.name}.`);
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </div>
  );
}

function HandlerCell({ type }: { type: ResourceTypeSpec }): ReactElement {
  if (type.handler && type.builtIn) {
    // Built-in specifiers are long module paths; the class name is what people recognise.
    return (
      <span className="truncate" title={type.handler}>
        <span className="mono">{type.handler.split(':').pop()}</span> <span className="faint">built-in</span>
      </span>
    );
  }
  if (type.handler) {
    return (
      <span className="mono truncate" title={type.handler}>
        {type.handler}
      </span>
    );
  }
  if (type.builtIn) return <span className="muted">built-in</span>;
  return <span className="faint">default handler</span>;
}
