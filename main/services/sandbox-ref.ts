/**
 * Which sandbox of a plan a reference means, one rule for every host (CLI, app, MCP): the
 * sandbox's id, resource id or resource name (each unique within a plan); else the one whose
 * short name or slot name it is. A short name or slot that fits several is refused, naming each
 * candidate by its resource name, never guessed.
 */
import { NotFoundError, ValidationError } from '../../shared/errors.ts';
import { shortName } from '../core/names.ts';
import type { SandboxInfo } from '../../shared/dto.ts';

/** Which sandbox of a plan: its id, its resource's id, name or short name, or a slot name. */
export type SandboxRef = string | undefined;

/** A sandbox as a refusal names it, so a host can offer the choice (the CLI's --resource, the app's list). */
export interface SandboxCandidate {
  sandboxId: string;
  resourceName: string;
  slotNames: string[];
}

/** What the rule looks at in a sandbox. */
type Named = Pick<SandboxInfo, 'id' | 'resourceId' | 'resourceName' | 'slotNames'>;

/** The sandbox of `sandboxes` (one plan's) that `ref` names; with no ref, the plan's only sandbox. */
export function pickSandbox<S extends Named>(planId: string, sandboxes: readonly S[], ref: SandboxRef): S {
  if (ref === undefined) {
    if (sandboxes.length === 1) return sandboxes[0] as S;
    throw new ValidationError(`Plan ${planId} has ${sandboxes.length} sandboxes: say which one, by resource name (${describe(sandboxes)}).`, {
      resources: sandboxes.map((s) => s.resourceName),
      candidates: candidates(sandboxes),
    });
  }
  // Ids and full resource names are unique within a plan: they win over a short name or slot
  // of another sandbox, or the refusal's advice (name it by resource name) could not be followed.
  const exact = sandboxes.find((s) => s.id === ref) ?? sandboxes.find((s) => s.resourceId === ref) ?? sandboxes.find((s) => s.resourceName === ref);
  if (exact) return exact;
  const found = sandboxes.filter((s) => shortName(s.resourceName) === ref || s.slotNames.includes(ref));
  if (found.length === 1) return found[0] as S;
  if (found.length > 1) {
    throw new ValidationError(`"${ref}" names several sandboxes of plan ${planId}: say which one, by resource name (${describe(found)}).`, {
      resource: ref,
      resources: found.map((s) => s.resourceName),
      candidates: candidates(found),
    });
  }
  throw new NotFoundError(`Plan ${planId} has no sandbox for "${ref}": use one of ${describe(sandboxes)}.`, {
    resource: ref,
    resources: sandboxes.map((s) => s.resourceName),
    candidates: candidates(sandboxes),
  });
}

function candidates(sandboxes: readonly Named[]): SandboxCandidate[] {
  return sandboxes.map((s) => ({ sandboxId: s.id, resourceName: s.resourceName, slotNames: s.slotNames }));
}

function describe(sandboxes: readonly Named[]): string {
  return sandboxes.map((s) => `${s.resourceName} (slots ${s.slotNames.join(', ') || '-'})`).join(', ') || 'none';
}
