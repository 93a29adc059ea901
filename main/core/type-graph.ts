/**
 * Sub-typing over `parentTypes`: a resource of type T fits a slot of type S when T is S or S is
 * reachable from T through parent types. Pure; built from the registry's list of types.
 */
import { ValidationError } from '../../shared/errors.ts';
import type { ResourceTypeSpec } from '../../shared/model.ts';

/** Read-only view of the type hierarchy with path queries. */
export class TypeGraph {
  private readonly parents = new Map<string, readonly string[]>();

  constructor(types: Iterable<Pick<ResourceTypeSpec, 'name' | 'parentTypes'>>) {
    for (const type of types) this.parents.set(type.name, type.parentTypes);
  }

  /** True when the type is known. */
  has(name: string): boolean {
    return this.parents.has(name);
  }

  /**
   * The shortest chain from `resourceType` up to `slotType` (both ends included), or null when
   * the resource type is not compatible with the slot type.
   */
  compatibilityPath(resourceType: string, slotType: string): string[] | null {
    if (resourceType === slotType) return [resourceType];
    const cameFrom = new Map<string, string>([[resourceType, '']]);
    const queue = [resourceType];
    while (queue.length > 0) {
      const current = queue.shift() as string;
      for (const parent of this.parents.get(current) ?? []) {
        if (cameFrom.has(parent)) continue;
        cameFrom.set(parent, current);
        if (parent === slotType) return tracePath(cameFrom, parent);
        queue.push(parent);
      }
    }
    return null;
  }

  /** Every type reachable from `name` through parent types, `name` excluded. */
  ancestors(name: string): string[] {
    const seen = new Set<string>();
    const stack = [...(this.parents.get(name) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(this.parents.get(next) ?? []));
    }
    return [...seen];
  }

  /** A graph with one type added or replaced, to test a change before saving it. */
  with(type: Pick<ResourceTypeSpec, 'name' | 'parentTypes'>): TypeGraph {
    const next = new TypeGraph([]);
    for (const [name, parents] of this.parents) next.parents.set(name, parents);
    next.parents.set(type.name, type.parentTypes);
    return next;
  }

  /** The cycle through `name` as a list of names (first = last), or null when there is none. */
  cycleThrough(name: string): string[] | null {
    for (const parent of this.parents.get(name) ?? []) {
      const path = parent === name ? [name] : this.compatibilityPath(parent, name);
      if (path) return [name, ...path];
    }
    return null;
  }
}

function tracePath(cameFrom: Map<string, string>, end: string): string[] {
  const path = [end];
  let current = cameFrom.get(end);
  while (current) {
    path.unshift(current);
    current = cameFrom.get(current);
  }
  return path;
}

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
