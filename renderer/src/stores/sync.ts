/**
 * Keeps the stores in step with the registry: loads everything once, then refreshes the areas
 * named by each registry-changed event, including changes the CLI makes in another process.
 */
import type { EventPayload } from '../../../shared/events.ts';
import { api, subscribe } from '../api/index.ts';
import { useProjects } from './projects-store.ts';
import { useResources } from './resources-store.ts';
import { useTools } from './tools-store.ts';
import { useTypes } from './types-store.ts';
import { useUi } from './ui-store.ts';

type Area = EventPayload<'registryChanged'>['areas'][number];

// Resources show their projects and projects show their resources: a change to either
// refreshes both.
const types = () => useTypes.getState().refresh();
const resources = () => useResources.getState().refresh();
const projects = () => useProjects.getState().refresh();
const tools = () => useTools.getState().refresh();
const REFRESH: Record<Area, Array<() => Promise<void>>> = {
  types: [types],
  resources: [resources, projects],
  projects: [projects, resources],
  tools: [tools],
};

/** The refreshes one event calls for, each once. */
export function refreshesFor(areas: readonly Area[]): Array<() => Promise<void>> {
  return [...new Set(areas.flatMap((area) => REFRESH[area]))];
}

/** Loads all stores and subscribes to registry changes; returns the unsubscribe function. */
export function startSync(): () => void {
  void refreshAll();
  api.appInfo().then(
    (info) => useUi.getState().setAppInfo(info),
    (error: unknown) => useUi.getState().setAppInfo(null, error),
  );
  return subscribe('registryChanged', (payload) => {
    void Promise.all(refreshesFor(payload.areas).map((refresh) => refresh()));
  });
}

/** Reloads every list (after reconnecting, or on demand). */
export function refreshAll(): Promise<unknown> {
  return Promise.all(refreshesFor(['types', 'resources', 'projects', 'tools']).map((refresh) => refresh()));
}
