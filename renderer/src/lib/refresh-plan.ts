/**
 * Which lists to reload when the registry says an area changed. Resources show the projects
 * that link them and projects show their resources, so either change reloads both.
 */
import type { REGISTRY_AREAS } from '../../../shared/events.ts';

/** A registry area, as events name it; also the name of the list to reload. */
export type Area = (typeof REGISTRY_AREAS)[number];

const DEPENDS: Record<Area, Area[]> = {
  types: ['types'],
  resources: ['resources', 'projects'],
  projects: ['projects', 'resources'],
  tools: ['tools'],
};

/** The lists to reload for the changed areas, each once. */
export function listsToReload(areas: readonly Area[]): Area[] {
  return [...new Set(areas.flatMap((area) => DEPENDS[area]))];
}
