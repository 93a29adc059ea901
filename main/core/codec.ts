/**
 * The one place that knows both spellings: TypeScript's camelCase inside Bindery, the reference
 * documents' snake_case in files and JSON that leave it (CLI `--json`, exports), so a
 * CleverAgents process can read them.
 */
import type { BindingResult, BoundResource, Project, ProjectDetail, Resource, ResourceTypeSpec, Tool } from '../../shared/model.ts';

type Wire = Record<string, unknown>;

/** camelCase -> snake_case for one key. */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Deep key conversion for values without a dedicated encoder (plans, reports, error details). */
export function toWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toWire);
  if (value === null || typeof value !== 'object') return value;
  const out: Wire = {};
  for (const [key, inner] of Object.entries(value)) out[RENAMES[key] ?? snakeCase(key)] = toWire(inner);
  return out;
}

/** Field names that differ beyond case, as the reference spells them. */
const RENAMES: Record<string, string> = { typeName: 'resource_type' };

/** A resource type as the reference spells it. */
export function encodeType(type: ResourceTypeSpec): Wire {
  return {
    name: type.name,
    description: type.description,
    parent_types: type.parentTypes,
    handler: type.handler,
    sandbox_strategy: type.sandboxStrategy,
    built_in: type.builtIn,
    created_at: type.createdAt,
    updated_at: type.updatedAt,
  };
}

/** A resource as the reference spells it. */
export function encodeResource(resource: Resource): Wire {
  return {
    resource_id: resource.id,
    name: resource.name,
    resource_type: resource.typeName,
    location: resource.location,
    sandbox_strategy: resource.sandboxStrategy,
    description: resource.description,
    created_at: resource.createdAt,
    updated_at: resource.updatedAt,
  };
}

/** A project, with its links when given. */
export function encodeProject(project: Project | ProjectDetail): Wire {
  const base: Wire = {
    project_id: project.id,
    name: project.name,
    description: project.description,
    agent_may_commit: project.agentMayCommit,
    created_at: project.createdAt,
    updated_at: project.updatedAt,
  };
  if ('links' in project) {
    base.links = project.links.map((link) => ({
      alias: link.alias,
      linked_at: link.createdAt,
      resource: encodeResource(link.resource),
    }));
  }
  return base;
}

/** A tool with its slots, in the tool-file spelling plus its id. */
export function encodeTool(tool: Tool): Wire {
  return {
    tool_id: tool.id,
    name: tool.name,
    description: tool.description,
    resource_slots: tool.resourceSlots.map((slot) => ({
      name: slot.name,
      resource_type: slot.resourceType,
      access: slot.access,
      binding: slot.binding,
      static_resource: slot.staticResource,
      required: slot.required,
    })),
    run: tool.run,
    created_at: tool.createdAt,
    updated_at: tool.updatedAt,
  };
}

/** A binding result with the reference field names. */
export function encodeBindingResult(result: BindingResult): Wire {
  return toWire(result) as Wire;
}

/** A bound resource with the reference field names. */
export function encodeBoundResource(bound: BoundResource): Wire {
  return {
    slot_name: bound.slotName,
    resource_id: bound.resourceId,
    resource_type: bound.resourceType,
    sandbox_path: bound.sandboxPath,
    access: bound.access,
  };
}
