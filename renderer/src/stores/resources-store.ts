/**
 * Resources: the list (with linking projects), registration, edits and removal, and the live
 * folder statuses, fetched lazily in batches for the rows that are on screen.
 */
import { create } from 'zustand';
import type { MethodInput } from '../../../shared/contract.ts';
import type { FolderInspection, ResourceListItem, ResourceRemoval, ResourceStatus } from '../../../shared/dto.ts';
import { api } from '../api/index.ts';
import { createBatcher } from '../lib/batcher.ts';
import { emptyLoadable, latestLoader, type Loadable } from './loadable.ts';

/** The resources list, live statuses and actions. */
export interface ResourcesState extends Loadable<ResourceListItem> {
  /** Live folder facts by resource id; absent until asked for. */
  statuses: Record<string, ResourceStatus>;
  refresh(): Promise<void>;
  add(input: MethodInput<'addResource'>): Promise<ResourceListItem>;
  update(input: MethodInput<'updateResource'>): Promise<ResourceListItem>;
  remove(ref: string, force: boolean): Promise<ResourceRemoval>;
  inspectFolder(path: string): Promise<FolderInspection>;
  /** Asks for the statuses of these rows; ids already known or on their way are skipped. */
  requestStatuses(ids: readonly string[]): void;
  /** Forgets every status so visible rows fetch fresh ones (the folders changed on disk). */
  resetStatuses(): void;
}

// Rows scroll into view a few at a time; one call per short burst keeps git calls batched.
const STATUS_BATCH_DELAY_MS = 40;

/** The one store of resources. */
export const useResources = create<ResourcesState>()((set, get) => {
  const statuses = createBatcher<ResourceStatus>({
    fetch: (ids) => api.resourceStatuses({ ids }),
    deliver: (values) => {
      const next = { ...get().statuses };
      for (const status of values) next[status.resourceId] = status;
      set({ statuses: next });
    },
    delayMs: STATUS_BATCH_DELAY_MS,
  });

  const refreshList = latestLoader(() => api.listResources(), set);

  return {
    ...emptyLoadable<ResourceListItem>(),
    statuses: {},
    refresh: refreshList,
    add: async (input) => {
      const resource = await api.addResource(input);
      await get().refresh();
      return resource;
    },
    update: async (input) => {
      const resource = await api.updateResource(input);
      const { [resource.id]: _stale, ...rest } = get().statuses;
      set({ statuses: rest });
      await get().refresh();
      return resource;
    },
    remove: async (ref, force) => {
      const removal = await api.removeResource({ ref, force });
      await get().refresh();
      return removal;
    },
    inspectFolder: (path) => api.inspectFolder({ path }),
    requestStatuses: (ids) => {
      const known = get().statuses;
      statuses.request(ids.filter((id) => !known[id]));
    },
    resetStatuses: () => {
      statuses.reset();
      set({ statuses: {} });
    },
  };
});
