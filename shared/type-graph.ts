/**
 * Sub-typing over `parentTypes`, written once for main and renderer: a resource of type T fits a
 * slot of type S when T is S or S is reachable from T through parent types. Pure.
 */
import type { ResourceTypeSpec } from './model.ts';

type TypeEdges = Pick<ResourceTypeSpec, 'name' | 'parentTypes'>;

/** Read-only view of the type hierarchy with path queries, up (parents) and down (sub-types). */
export class TypeGraph {
  private readonly parents = new Map<string, readonly string[]>();
  private children: Map<string, string[]> | null = null;

  constructor(types: Iterable<TypeEdges>) {
    for (const type of types) this.parents.set(type.name, type.parentTypes);
  }

  /** Every known type name, in the order given. */
  names(): string[] {
    return [...this.parents.keys()];
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
    const cameFrom = reach(resourceType, (name) => this.parents.get(name) ?? []);
    if (!cameFrom.has(slotType)) return null;
    const path = [slotType];
    for (let current = slotType; current !== resourceType; ) {
      current = cameFrom.get(current) as string;
      path.unshift(current);
    }
    return path;
  }

  /** Every type reachable from `name` through parent types (`name` itself only on a cycle). */
  ancestors(name: string): string[] {
    return [...reach(name, (next) => this.parents.get(next) ?? []).keys()];
  }

  /** Every type that has `name` among its transitive parents (`name` itself only on a cycle). */
  descendants(name: string): Set<string> {
    const children = this.childMap();
    return new Set(reach(name, (next) => children.get(next) ?? []).keys());
  }

  /** A graph with one type added or replaced, to test a change before saving it. */
  with(type: TypeEdges): TypeGraph {
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

  private childMap(): Map<string, string[]> {
    if (this.children) return this.children;
    const children = new Map<string, string[]>();
    for (const [name, parents] of this.parents) {
      for (const parent of parents) children.set(parent, [...(children.get(parent) ?? []), name]);
    }
    this.children = children;
    return children;
  }
}

/**
 * Breadth-first walk from `start`: each name reached, mapped to the name it was first reached
 * from, so the chain back to `start` is a shortest one. Terminates on cycles in the data.
 */
function reach(start: string, next: (name: string) => readonly string[]): Map<string, string> {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let index = 0; index < queue.length; index += 1) {
    const current = queue[index] as string;
    for (const neighbour of next(current)) {
      if (cameFrom.has(neighbour)) continue;
      cameFrom.set(neighbour, current);
      queue.push(neighbour);
    }
  }
  return cameFrom;
}

/** A type offered as a parent, and why not when it may not be one. */
export interface ParentChoice {
  name: string;
  allowed: boolean;
  reason: string | null;
}

/**
 * Each other type with whether it may be a parent of `name` (null: a type being created): not
 * any type that already descends from it, which would close a cycle. The core refuses cycles
 * too; offering only safe choices spares the user the error.
 */
export function parentChoices(types: readonly TypeEdges[], name: string | null): ParentChoice[] {
  const below = name ? new TypeGraph(types).descendants(name) : new Set<string>();
  return types
    .filter((type) => type.name !== name)
    .map((type) => ({
      name: type.name,
      allowed: !below.has(type.name),
      reason: below.has(type.name) ? `already a sub-type of ${name}` : null,
    }));
}
