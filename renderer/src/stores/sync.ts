/**
 * Keeps the stores in step with the registry: loads everything once, then reloads the lists
 * named by each registry-changed event, including changes the CLI makes in another process.
 */
import { REGISTRY_AREAS } from '../../../shared/events.ts';
import { api, subscribe } from '../api/index.ts';
import { listsToReload, type Area, type ListArea } from '../lib/refresh-plan.ts';
import { useProjects } from './projects-store.ts';
import { useResources } from './resources-store.ts';
import { useTools } from './tools-store.ts';
import { useTypes } from './types-store.ts';
import { useUi } from './ui-store.ts';

const RELOAD: Record<ListArea, () => Promise<void>> = {
  types: () => useTypes.getState().refresh(),
  resources: () => useResources.getState().refresh(),
  projects: () => useProjects.getState().refresh(),
  tools: () => useTools.getState().refresh(),
};

/** Reloads the lists affected by changes to `areas`. */
export function reload(areas: readonly Area[]): Promise<unknown> {
  return Promise.all(listsToReload(areas).map((area) => RELOAD[area]()));
}

/** Loads all stores and subscribes to registry changes; returns the unsubscribe function. */
export function startSync(): () => void {
  void reload(REGISTRY_AREAS);
  api.appInfo().then(
    (info) => useUi.getState().setAppInfo(info),
    (error: unknown) => useUi.getState().setAppInfo(null, error),
  );
  return subscribe('registryChanged', (payload) => {
    // A resource may have moved or changed type: its folder status is worth asking again.
    if (payload.areas.includes('resources')) useResources.getState().resetStatuses();
    void reload(payload.areas);
  });
}
