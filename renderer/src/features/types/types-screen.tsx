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

  const columns = useMemo<Array<GridColumn<ResourceTypeSpec>>>(
    () => [
      {
        id: 'name',
        accessorKey: 'name',
        header: 'Name',
        meta: { width: 'minmax(180px, 1.3fr)' },
        cell: ({ row }) => (
          <>
            <span className="mono name-cell truncate" title={row.original.description || row.original.name}>
              {row.original.name}
            </span>
            {row.original.builtIn && <span className="badge badge-accent">built-in</span>}
          </>
        ),
      },
      {
        id: 'parents',
        header: 'Parent types',
        accessorFn: (type) => type.parentTypes.join(', '),
        meta: { width: 'minmax(160px, 1.2fr)' },
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
        meta: { width: 'minmax(200px, 1.7fr)' },
        cell: ({ row }) => <HandlerCell type={row.original} />,
      },
      {
        id: 'strategy',
        accessorKey: 'sandboxStrategy',
        header: 'Sandbox strategy',
        meta: { width: '150px' },
        cell: ({ row }) => <span>{STRATEGY_LABELS[row.original.sandboxStrategy]}</span>,
      },
      {
        id: 'description',
        accessorKey: 'description',
        header: 'Description',
        meta: { width: 'minmax(140px, 1.3fr)' },
        cell: ({ row }) => (
          <span className="truncate muted" title={row.original.description}>
            {row.original.description}
          </span>
        ),
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
    [],
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
      {status === 'error' && <ErrorCallout error={error} />}
      <DataTable
        label="Resource types"
        data={items}
        columns={columns}
        getRowId={(type) => type.name}
        initialSorting={[]}
        empty={
          <EmptyState icon="layers" title={status === 'ready' ? 'No resource types' : 'Loading types…'}>
            {status === 'ready' && 'The built-in types git-checkout and fs-directory should always be here: run "bindery doctor" to check the database.'}
          </EmptyState>
        }
      />
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
