/**
 * The save rule of the type hierarchy: parents must exist and must not close a cycle. The walk
 * itself is shared with the renderer (shared/type-graph.ts) and re-exported here.
 */
import { ValidationError } from '../../shared/errors.ts';
import type { ResourceTypeSpec } from '../../shared/model.ts';
import { TypeGraph } from '../../shared/type-graph.ts';

export { TypeGraph };

/** Refuses a type whose parent types are unknown or would close a cycle. */
export function assertValidParents(graph: TypeGraph, type: Pick<ResourceTypeSpec, 'name' | 'parentTypes'>): void {
  const unknown = type.parentTypes.filter((parent) => parent !== type.name && !graph.has(parent));
  if (unknown.length > 0) {
    throw new ValidationError(
      `Unknown parent type${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}: add ${unknown.length > 1 ? 'them' : 'it'} first, or check the spelling.`,
      { field: 'parent_types', unknown },
    );
  }
  const cycle = graph.with(type).cycleThrough(type.name);
  if (cycle) {
    throw new ValidationError(
      `Parent types of "${type.name}" would make a cycle: ${cycle.join(' -> ')}. Remove one of those parent types.`,
      { field: 'parent_types', cycle },
    );
  }
}
