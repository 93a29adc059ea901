/** The columns of the resources table. */
import type { ResourceListItem } from '../../../../shared/dto.ts';
import type { ResourceTypeSpec } from '../../../../shared/model.ts';
import type { GridColumn } from '../../components/data-table.tsx';
import { Icon } from '../../components/icons.tsx';
import { PathText } from '../../components/path-text.tsx';
import { STRATEGY_LABELS } from '../../lib/labels.ts';
import { StatusCell } from './status-cell.tsx';

/** Row actions the table offers. */
export interface ResourceActions {
  edit(resource: ResourceListItem): void;
  remove(resource: ResourceListItem): void;
}

/** Column definitions; `types` gives each resource's default strategy. */
export function resourceColumns(types: ReadonlyMap<string, ResourceTypeSpec>, actions: ResourceActions): Array<GridColumn<ResourceListItem>> {
  return [
    {
      id: 'name',
      accessorKey: 'name',
      header: 'Name',
      meta: { width: 'minmax(180px, 1.4fr)' },
      cell: ({ row }) => (
        <span className="mono name-cell truncate" title={row.original.description ? `${row.original.name}: ${row.original.description}` : row.original.name}>
          {row.original.name}
        </span>
      ),
    },
    {
      id: 'type',
      accessorKey: 'typeName',
      header: 'Type',
      meta: { width: '118px' },
      cell: ({ row }) => <span className="chip">{row.original.typeName}</span>,
    },
    {
      id: 'location',
      accessorKey: 'location',
      header: 'Location',
      meta: { width: 'minmax(160px, 1.6fr)' },
      cell: ({ row }) => <PathText path={row.original.location} />,
    },
    {
      id: 'strategy',
      header: 'Strategy',
      accessorFn: (resource) => resource.sandboxStrategy ?? types.get(resource.typeName)?.sandboxStrategy ?? 'none',
      meta: { width: '132px' },
      cell: ({ row }) => {
        const own = row.original.sandboxStrategy;
        const inherited = types.get(row.original.typeName)?.sandboxStrategy ?? 'none';
        return own ? (
          <span className="truncate" title="Set on this resource">
            {STRATEGY_LABELS[own]}
          </span>
        ) : (
          <span className="truncate muted" title={`The default of type ${row.original.typeName}`}>
            {STRATEGY_LABELS[inherited]}
          </span>
        );
      },
    },
    {
      id: 'projects',
      header: 'Projects',
      accessorFn: (resource) => resource.projects.join(', '),
      meta: { width: 'minmax(100px, 0.9fr)' },
      cell: ({ row }) =>
        row.original.projects.length === 0 ? (
          <span className="faint">none</span>
        ) : (
          <span className="truncate" title={row.original.projects.join(', ')}>
            {row.original.projects.join(', ')}
          </span>
        ),
    },
    {
      id: 'status',
      header: 'Status',
      enableSorting: false,
      meta: { width: 'minmax(190px, 1.2fr)' },
      cell: ({ row }) => <StatusCell resourceId={row.original.id} />,
    },
    {
      id: 'actions',
      header: () => <span className="visually-hidden">Actions</span>,
      enableSorting: false,
      meta: { width: '66px', className: 'grid-actions' },
      cell: ({ row }) => (
        <>
          <button type="button" className="btn btn-ghost btn-icon btn-sm" aria-label={`Edit ${row.original.name}`} onClick={() => actions.edit(row.original)}>
            <Icon name="edit" />
          </button>
          <button type="button" className="btn btn-ghost btn-icon btn-sm" aria-label={`Remove ${row.original.name}`} onClick={() => actions.remove(row.original)}>
            <Icon name="trash" />
          </button>
        </>
      ),
    },
  ];
}
