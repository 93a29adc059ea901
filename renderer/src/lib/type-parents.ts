/**
 * Which types may be chosen as parents of a type without creating a cycle: not itself, and
 * not any type that already descends from it. The core refuses cycles too; offering only safe
 * choices spares the user the error.
 */
import type { ResourceTypeSpec } from '../../../shared/model.ts';

/** Names of every type that has `name` among its (transitive) parents. */
export function descendantsOf(types: readonly ResourceTypeSpec[], name: string): Set<string> {
  const children = new Map<string, string[]>();
  for (const type of types) {
    for (const parent of type.parentTypes) children.set(parent, [...(children.get(parent) ?? []), type.name]);
  }
  const seen = new Set<string>();
  const stack = [...(children.get(name) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(children.get(next) ?? []));
  }
  return seen;
}

/** Each type with whether it may be a parent of `name` (null name: a type being created). */
export function parentChoices(types: readonly ResourceTypeSpec[], name: string | null): Array<{ name: string; allowed: boolean; reason: string | null }> {
  const below = name ? descendantsOf(types, name) : new Set<string>();
  return types
    .filter((type) => type.name !== name)
    .map((type) => ({
      name: type.name,
      allowed: !below.has(type.name),
      reason: below.has(type.name) ? `already a sub-type of ${name}` : null,
    }));
}
