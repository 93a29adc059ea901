/**
 * The buttons that fix a slot's binding error: set the slot's name as the alias of one of several
 * compatible candidates (the ambiguity rule then picks it), or link a compatible resource when the
 * project has none. Pure, so the choices are tested without a screen.
 */
import type { ResourceListItem } from '../../../../shared/dto.ts';
import type { BindingResult, ResourceTypeSpec } from '../../../../shared/model.ts';
import { TypeGraph } from '../../../../shared/type-graph.ts';

/** One fix a button can apply. */
export type BindingFix =
  | { kind: 'alias'; resourceId: string; resourceName: string; alias: string; replaces: string | null }
  | { kind: 'link'; resources: ResourceListItem[] };

/** Type names that satisfy a slot of `slotType`: itself and every (transitive) sub-type. */
export function compatibleTypes(types: readonly ResourceTypeSpec[], slotType: string): Set<string> {
  return new Set([slotType, ...new TypeGraph(types).descendants(slotType)]);
}

/** The fixes for one slot result; none when it bound, is deferred, or only the tool file can fix it. */
export function bindingFixes(
  result: BindingResult,
  projectName: string,
  resources: readonly ResourceListItem[],
  types: readonly ResourceTypeSpec[],
): BindingFix[] {
  if (result.error === null || result.bindingMode !== 'contextual') return [];
  const compatible = result.explanation.candidates.filter((c) => c.compatible);
  if (compatible.length >= 2) {
    return compatible.map((c) => ({
      kind: 'alias',
      resourceId: c.resourceId,
      resourceName: c.resourceName,
      alias: result.slotName,
      replaces: c.alias,
    }));
  }
  if (compatible.length === 0) {
    const fits = compatibleTypes(types, result.resourceType);
    const linkable = resources.filter((r) => fits.has(r.typeName) && !r.projects.includes(projectName));
    return [{ kind: 'link', resources: linkable }];
  }
  return [];
}

/** Resources a parameter slot may take: those of a compatible type, by name. */
export function parameterChoices(
  slotType: string,
  resources: readonly ResourceListItem[],
  types: readonly ResourceTypeSpec[],
): ResourceListItem[] {
  const fits = compatibleTypes(types, slotType);
  return resources.filter((r) => fits.has(r.typeName)).sort((a, b) => a.name.localeCompare(b.name));
}

/** The resource ids the slots bound, once each (deferred and unbound slots have none). */
export function boundIds(results: readonly BindingResult[] | null): string[] {
  return [...new Set((results ?? []).flatMap((r) => (r.resourceId ? [r.resourceId] : [])))];
}
