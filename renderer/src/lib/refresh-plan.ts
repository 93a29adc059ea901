/**
 * Which lists to reload when the registry says an area changed. Resources show the projects
 * that link them and projects show their resources, so either change reloads both.
 */
import type { REGISTRY_AREAS } from '../../../shared/events.ts';

/** A registry area, as events name it. */
export type Area = (typeof REGISTRY_AREAS)[number];

/** An area with a window-wide list to reload (review notes are reloaded by the review that shows them). */
export type ListArea = Exclude<Area, 'notes'>;

const DEPENDS: Record<Area, ListArea[]> = {
  types: ['types'],
  resources: ['resources', 'projects'],
  projects: ['projects', 'resources'],
  tools: ['tools'],
  notes: [],
};

/** The lists to reload for the changed areas, each once. */
export function listsToReload(areas: readonly Area[]): ListArea[] {
  return [...new Set(areas.flatMap((area) => DEPENDS[area]))];
}
