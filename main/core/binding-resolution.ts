/**
 * BindingResolutionService: maps each resource slot of a tool to a resource, with the rules of
 * `reference/tool_bindings.md`, and explains every decision. Pure: the registry is an interface.
 */
import { ValidationError } from '../../shared/errors.ts';
import type { ErrorHint } from '../../shared/error-hints.ts';
import type {
  BindingResult,
  CandidateExplanation,
  Project,
  Resource,
  ResourceSlot,
  Tool,
} from '../../shared/model.ts';
import { shortName } from './names.ts';
import type { TypeGraph } from './type-graph.ts';

/** What resolution needs from the registry; every lookup is an indexed query. */
export interface ResolutionRegistry {
  /** The current type hierarchy. */
  typeGraph(): TypeGraph;
  /** A resource by exact name or id. */
  findResource(nameOrId: string): Resource | undefined;
  /** The resources linked to a project, with their aliases. */
  projectLinks(projectId: string): Array<{ resource: Resource; alias: string | null }>;
}

/** Resource name-or-id per parameter slot name. */
export type BindingParams = Readonly<Record<string, string>>;

/** Resolves tool slots against a project. */
export class BindingResolutionService {
  constructor(private readonly registry: ResolutionRegistry) {}

  /**
   * Resolves every slot and returns the results, errors included, without throwing for slot
   * errors: the form the binding inspector shows.
   */
  inspect(tool: Pick<Tool, 'name' | 'resourceSlots'>, project: Project, params: BindingParams = {}): BindingResult[] {
    assertKnownParams(tool, params);
    const graph = this.registry.typeGraph();
    const slotResolver = new SlotResolver(this.registry, graph, project, params);
    return tool.resourceSlots.map((slot) => slotResolver.resolve(slot));
  }

  /**
   * Resolves every slot, in slot order. Throws one ValidationError naming every slot that could
   * not be bound (with all results in its details) when any failed.
   */
  resolve(tool: Pick<Tool, 'name' | 'resourceSlots'>, project: Project, params: BindingParams = {}): BindingResult[] {
    assertKnownParams(tool, params);
    const slotResolver = new SlotResolver(this.registry, this.registry.typeGraph(), project, params);
    const results = tool.resourceSlots.map((slot) => slotResolver.resolve(slot));
    const failed = results.filter((result) => result.error !== null);
    if (failed.length > 0) {
      const lines = failed.map((result) => `  - slot "${result.slotName}": ${result.error} ${result.explanation.fix ?? ''}`.trimEnd());
      throw new ValidationError(
        `${failed.length} of ${results.length} slot${results.length > 1 ? 's' : ''} of tool "${tool.name}" could not be bound in project "${project.name}":\n${lines.join('\n')}`,
        {
          slots: failed.map((result) => ({ slotName: result.slotName, error: result.error, fix: result.explanation.fix })),
          results,
          hints: failed.flatMap((result) => slotResolver.hints.get(result.slotName) ?? []),
        },
      );
    }
    return results;
  }
}

function assertKnownParams(tool: Pick<Tool, 'name' | 'resourceSlots'>, params: BindingParams): void {
  const parameterSlots = tool.resourceSlots.filter((slot) => slot.binding === 'parameter').map((slot) => slot.name);
  const unknown = Object.keys(params).filter((key) => !parameterSlots.includes(key));
  if (unknown.length === 0) return;
  const allowed = parameterSlots.length > 0 ? `Its parameter slots are: ${parameterSlots.join(', ')}.` : 'It has no parameter slots.';
  throw new ValidationError(
    `Tool "${tool.name}" has no parameter slot named ${unknown.map((u) => `"${u}"`).join(', ')}. ${allowed}`,
    { unknownParams: unknown, parameterSlots },
  );
}

class SlotResolver {
  private links: Array<{ resource: Resource; alias: string | null }> | undefined;
  /** What would bind each failed slot, by slot name, for the hosts to spell (the CLI's command). */
  readonly hints = new Map<string, ErrorHint>();

  constructor(
    private readonly registry: ResolutionRegistry,
    private readonly graph: TypeGraph,
    private readonly project: Project,
    private readonly params: BindingParams,
  ) {}

  resolve(slot: ResourceSlot): BindingResult {
    switch (slot.binding) {
      case 'static':
        return this.named(slot, slot.staticResource ?? '', 'static: the resource named by the tool');
      case 'parameter': {
        const value = this.params[slot.name];
        if (value !== undefined) return this.named(slot, value, 'parameter: supplied at invocation');
        return result(slot, null, {
          deferred: true,
          rule: 'parameter: deferred until invocation',
          summary: `Deferred: supply ${slot.name}=<resource name or id> when the tool is invoked.`,
        });
      }
      case 'contextual':
        return this.contextual(slot);
    }
  }

  private named(slot: ResourceSlot, reference: string, rule: string): BindingResult {
    const resource = reference ? this.registry.findResource(reference) : undefined;
    if (!resource) {
      const how =
        slot.binding === 'static'
          ? `Register "${reference}" again as a resource, or change static_resource of slot "${slot.name}" and import the tool again.`
          : `Pass the name or id of a registered resource of type ${slot.resourceType}.`;
      if (slot.binding === 'static') this.hints.set(slot.name, { action: 'add-resource', name: reference, type: slot.resourceType });
      return result(slot, null, {
        rule,
        error: `Resource "${reference}" is not in the registry.`,
        fix: how,
        summary: `Resource "${reference}" is not in the registry.`,
      });
    }
    const candidate = this.candidate(slot, resource, null);
    candidate.chosen = candidate.compatible;
    if (!candidate.compatible) {
      return result(slot, null, {
        candidates: [candidate],
        rule,
        error: `Resource "${resource.name}" is of type ${resource.typeName}, which is not ${slot.resourceType} or a sub-type of it.`,
        fix: `Use a resource of type ${slot.resourceType}, or add ${slot.resourceType} to the parent types of ${resource.typeName}.`,
        summary: `${resource.name} does not fit.`,
      });
    }
    return result(slot, resource, { candidates: [candidate], rule, summary: `Bound to ${resource.name} (${candidate.reason}).` });
  }

  private contextual(slot: ResourceSlot): BindingResult {
    this.links ??= this.registry.projectLinks(this.project.id);
    const candidates = this.links.map((link) => ({ link, explanation: this.candidate(slot, link.resource, link.alias) }));
    const compatible = candidates.filter((c) => c.explanation.compatible);
    const explanations = candidates.map((c) => c.explanation);

    if (compatible.length === 0) {
      const none = `No resource of type ${slot.resourceType} (or a sub-type) is linked to project "${this.project.name}".`;
      if (!slot.required) {
        return result(slot, null, {
          candidates: explanations,
          rule: 'contextual: no compatible resource; the slot is optional and stays unbound',
          summary: `Unbound (optional). ${none}`,
        });
      }
      this.hints.set(slot.name, { action: 'link-resource', project: this.project.name, type: slot.resourceType });
      return result(slot, null, {
        candidates: explanations,
        rule: 'contextual: no compatible resource',
        error: none,
        fix: `Link a resource of type ${slot.resourceType} to project "${this.project.name}".`,
        summary: none,
      });
    }

    const pick = (winner: (typeof compatible)[number], rule: string): BindingResult => {
      winner.explanation.chosen = true;
      return result(slot, winner.link.resource, {
        candidates: explanations,
        rule,
        summary: `Bound to ${winner.link.resource.name}: ${rule.replace(/^contextual: /, '')}.`,
      });
    };
    if (compatible.length === 1) return pick(compatible[0]!, 'contextual: the only compatible resource in the project');

    const byAlias = compatible.filter((c) => c.link.alias === slot.name);
    if (byAlias.length === 1) return pick(byAlias[0]!, `contextual: its alias equals the slot name "${slot.name}"`);
    const byShortName = compatible.filter((c) => shortName(c.link.resource.name) === slot.name);
    if (byShortName.length === 1) return pick(byShortName[0]!, `contextual: its short name equals the slot name "${slot.name}"`);

    const names = compatible.map((c) => c.link.resource.name);
    this.hints.set(slot.name, { action: 'set-alias', project: this.project.name, alias: slot.name });
    const tied = byShortName.length > 1 ? ` (${byShortName.length} share the short name "${slot.name}")` : '';
    return result(slot, null, {
      candidates: explanations,
      rule: 'contextual: several compatible resources and no alias or short name equal to the slot name',
      error: `${compatible.length} resources of type ${slot.resourceType} are linked to project "${this.project.name}"${tied}: ${names.join(', ')}.`,
      fix: `Set alias "${slot.name}" on the link of one of: ${names.join(', ')}.`,
      summary: `Ambiguous between ${names.join(', ')}.`,
    });
  }

  private candidate(slot: ResourceSlot, resource: Resource, alias: string | null): CandidateExplanation {
    const typePath = this.graph.compatibilityPath(resource.typeName, slot.resourceType);
    let reason: string;
    if (!typePath) reason = `incompatible: ${resource.typeName} is not ${slot.resourceType} or a sub-type of it`;
    else if (typePath.length === 1) reason = `exact: type ${resource.typeName}`;
    else reason = `via ${typePath.join(' -> ')}`;
    return {
      resourceId: resource.id,
      resourceName: resource.name,
      resourceType: resource.typeName,
      alias,
      compatible: typePath !== null,
      typePath,
      reason,
      chosen: false,
    };
  }
}

interface ResultParts {
  candidates?: CandidateExplanation[];
  rule: string;
  summary: string;
  deferred?: boolean;
  error?: string;
  fix?: string;
}

function result(slot: ResourceSlot, resource: Resource | null, parts: ResultParts): BindingResult {
  return {
    slotName: slot.name,
    bindingMode: slot.binding,
    resourceId: resource?.id ?? null,
    resourceType: resource?.typeName ?? slot.resourceType,
    access: slot.access,
    required: slot.required,
    deferred: parts.deferred ?? false,
    error: parts.error ?? null,
    explanation: {
      candidates: parts.candidates ?? [],
      rule: parts.rule,
      summary: parts.summary,
      fix: parts.fix ?? null,
    },
  };
}
