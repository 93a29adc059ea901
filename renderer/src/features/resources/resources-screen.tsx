/**
 * The resources screen: a sortable, filterable, virtualized table of every registered folder
 * with its live status, and the register, edit and remove dialogs.
 */
import { useDeferredValue, useMemo, useRef, useState, type ReactElement } from 'react';
import type { ResourceListItem } from '../../../../shared/dto.ts';
import { host } from '../../api/index.ts';
import { DataTable } from '../../components/data-table.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useSlashToFocus } from '../../hooks/use-slash-to-focus.ts';
import { formatCount, formatNumber } from '../../lib/counts.ts';
import { resourceMatcher, typeCounts } from '../../lib/resource-filter.ts';
import { useResources } from '../../stores/resources-store.ts';
import { useTypes } from '../../stores/types-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { EditResourceDialog } from './edit-resource-dialog.tsx';
import { RegisterDialog } from './register-dialog.tsx';
import { RemoveResourceDialog } from './remove-resource-dialog.tsx';
import { resourceColumns } from './resource-columns.tsx';

/** Lists resources and hosts their dialogs. */
export function ResourcesScreen(): ReactElement {
  // Narrow selections: live statuses stream into the same store and must not re-render the screen.
  const items = useResources((state) => state.items);
  const status = useResources((state) => state.status);
  const error = useResources((state) => state.error);
  const resetStatuses = useResources((state) => state.resetStatuses);
  const types = useTypes((state) => state.items);
  const registerLocation = useUi((state) => state.registerLocation);
  const openRegister = useUi((state) => state.openRegister);
  const [text, setText] = useState('');
  const [typeName, setTypeName] = useState('');
  const [editing, setEditing] = useState<ResourceListItem | null>(null);
  const [removing, setRemoving] = useState<ResourceListItem | null>(null);
  // Typing stays responsive on 10,000 rows: the table catches up with the deferred value.
  const filter = useDeferredValue(useMemo(() => ({ text, typeName }), [text, typeName]));
  const matcher = useMemo(() => resourceMatcher(filter), [filter]);
  const shown = useMemo(() => (matcher ? items.filter(matcher).length : items.length), [items, matcher]);
  const typeMap = useMemo(() => new Map(types.map((type) => [type.name, type])), [types]);
  const columns = useMemo(() => resourceColumns(typeMap, { edit: setEditing, remove: setRemoving }), [typeMap]);
  const counts = useMemo(() => typeCounts(items), [items]);
  const filtered = text !== '' || typeName !== '';
  const searchRef = useRef<HTMLInputElement>(null);
  useSlashToFocus(searchRef);

  const pick = async () => {
    const path = await host.pickFolder();
    if (path) openRegister(path);
  };

  return (
    <div className="page">
      <PageHeader
        title="Resources"
        subtitle="Folders Bindery knows: git checkouts and plain directories that projects link and tools bind to."
        actions={
          <>
            {host.canPickFolder && (
              <button type="button" className="btn" onClick={() => void pick()}>
                <Icon name="folder" /> Choose folder…
              </button>
            )}
            <button type="button" className="btn btn-primary" onClick={() => openRegister('')}>
              <Icon name="plus" /> Register folder
            </button>
          </>
        }
      />
      {items.length > 0 && (
        <div className="toolbar">
          <div className="search-box">
            <Icon name="search" size={14} />
            <label className="visually-hidden" htmlFor="resource-search">
              Filter resources
            </label>
            <input
              ref={searchRef}
              id="resource-search"
              className="input input-search"
              type="search"
              placeholder="Filter by name, path, project…"
              value={text}
              onChange={(event) => setText(event.target.value)}
              aria-keyshortcuts="/"
            />
            <kbd className="kbd-hint search-kbd" aria-hidden="true">
              /
            </kbd>
          </div>
          <label className="visually-hidden" htmlFor="resource-type-filter">
            Filter by type
          </label>
          <select id="resource-type-filter" className="select" value={typeName} onChange={(event) => setTypeName(event.target.value)}>
            <option value="">All types</option>
            {counts.map((entry) => (
              <option key={entry.typeName} value={entry.typeName}>
                {entry.typeName} ({entry.count})
              </option>
            ))}
          </select>
          <button type="button" className="btn btn-ghost btn-sm" onClick={resetStatuses} title="Check every visible folder again (branch, changes)">
            <Icon name="refresh" size={14} /> Refresh status
          </button>
          <span className="toolbar-count" data-testid="resource-count">
            {filtered ? `${formatNumber(shown)} of ${formatNumber(items.length)}` : formatCount(items.length, 'resource')}
          </span>
        </div>
      )}
      {status === 'error' && <ErrorCallout error={error} onRetry={() => void useResources.getState().refresh()} />}
      {items.length === 0 && status !== 'error' ? (
        <div className="grid grid-fill">
          {status === 'ready' ? (
            <EmptyState
              icon="folder"
              title="No resources yet"
              actions={
                <button type="button" className="btn btn-primary" onClick={() => openRegister('')}>
                  <Icon name="plus" /> Register folder
                </button>
              }
            >
              Register a git checkout or a plain folder so projects can link it and tools can bind to it. You can also drop a folder anywhere on this window.
            </EmptyState>
          ) : (
            <EmptyState icon="folder" title="Loading resources…" />
          )}
        </div>
      ) : (
        <DataTable
          label="Resources"
          data={items}
          rowFilter={matcher}
          columns={columns}
          getRowId={(resource) => resource.id}
          initialSorting={[{ id: 'name', desc: false }]}
          empty={
            <EmptyState
              icon="search"
              title="No resources match"
              actions={
                <button
                  type="button"
                  className="btn"
                  onClick={() => {
                    setText('');
                    setTypeName('');
                  }}
                >
                  Clear filters
                </button>
              }
            >
              Nothing matches “{text}”{typeName ? ` among ${typeName} resources` : ''}.
            </EmptyState>
          }
        />
      )}
      {registerLocation !== null && <RegisterDialog initialLocation={registerLocation} />}
      {editing && <EditResourceDialog resource={editing} onClose={() => setEditing(null)} />}
      {removing && <RemoveResourceDialog resource={removing} onClose={() => setRemoving(null)} />}
    </div>
  );
}
