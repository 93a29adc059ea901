/**
 * Removing a resource: the confirmation lists what depends on it (projects linking it, tools
 * naming it in a static slot) and explains what forcing does.
 */
import type { ReactElement } from 'react';
import type { ResourceListItem } from '../../../../shared/dto.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useResources } from '../../stores/resources-store.ts';
import { useTools } from '../../stores/tools-store.ts';
import { useUi } from '../../stores/ui-store.ts';

/** The confirmation, with dependents and the force choice. */
export function RemoveResourceDialog({ resource, onClose }: { resource: ResourceListItem; onClose: () => void }): ReactElement {
  const remove = useResources((state) => state.remove);
  const tools = useTools((state) => state.items);
  const toast = useUi((state) => state.toast);
  const staticIn = tools.filter((tool) => tool.resourceSlots.some((slot) => slot.staticResource === resource.name || slot.staticResource === resource.id)).map((tool) => tool.name);
  const dependents = [...resource.projects.map((name) => `project ${name} links it`), ...staticIn.map((name) => `tool ${name} names it in a static slot`)];
  return (
    <ConfirmDialog
      title={`Remove ${resource.name}?`}
      message={
        <>
          Bindery forgets this resource. The folder <code>{resource.location}</code> is not touched.
        </>
      }
      itemsLabel={dependents.length > 0 ? 'Still in use:' : undefined}
      items={dependents}
      force={
        dependents.length > 0
          ? {
              label: 'Remove anyway',
              explanation: 'The project links are deleted with it, and tools with a static slot naming it will fail to bind until they are changed.',
            }
          : undefined
      }
      confirmLabel="Remove resource"
      onConfirm={async ({ force }) => {
        const removal = await remove(resource.id, force);
        const unlinked = removal.unlinkedFrom.length > 0 ? ` Unlinked from ${removal.unlinkedFrom.join(', ')}.` : '';
        toast(`Removed ${resource.name}.${unlinked}`);
      }}
      onClose={onClose}
    />
  );
}
