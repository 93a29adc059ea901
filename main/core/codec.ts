/**
 * The one place that knows both spellings: TypeScript's camelCase inside Bindery, the reference
 * documents' snake_case in files and JSON that leave it (CLI `--json`, exports), so a
 * CleverAgents process can read them.
 */
import type { CommitInfo, DoctorReport, FileDiff, PlanHistoryEntry, PlanInfo, ResourceRemoval, SandboxInfo } from '../../shared/dto.ts';
import { hunkHeader } from '../../shared/hunk-header.ts';
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

/** A newly registered resource, with the warning (only when there is one) that its folder was registered already. */
export function encodeRegistration(resource: Resource, warning: string | null): Wire {
  return warning ? { ...encodeResource(resource), warning } : encodeResource(resource);
}

/** A resource with the names of the projects that link it. */
export function encodeResourceItem(resource: Resource, projects: readonly string[]): Wire {
  return { ...encodeResource(resource), projects };
}

/** A removed resource with what depended on it. */
export function encodeResourceRemoval(removal: ResourceRemoval): Wire {
  return { ...encodeResource(removal.resource), unlinked_from: removal.unlinkedFrom, static_in: removal.staticIn };
}

/** A plan; its params are keyed by slot names, which are kept as written (not snake-cased). */
export function encodePlan(plan: PlanInfo): Wire {
  const { id, params, ...rest } = plan;
  return { plan_id: id, ...(toWire(rest) as Wire), params };
}

/** A bound slot with how its sandbox was made, in the reference spelling plus Bindery's fields. */
export function encodeBoundSlot(bound: BoundResource, sandbox: SandboxInfo | undefined): Wire {
  return {
    ...encodeBoundResource(bound),
    resource_name: sandbox?.resourceName ?? null,
    sandbox_id: sandbox?.id ?? null,
    strategy: sandbox?.strategy ?? null,
    requested_strategy: sandbox?.requestedStrategy ?? null,
    fallback_reason: sandbox?.fallbackReason ?? null,
    copy_method: sandbox?.copyMethod ?? null,
    handler_failure: sandbox?.handlerFailure ?? null,
    ignored_files: sandbox?.ignoredFiles ?? [],
    ignored_count: sandbox?.ignoredCount ?? 0,
  };
}

/** What a plan page holds: the plan, its bound slots, sandboxes, history and commits. */
export interface PlanDetailInput {
  plan: PlanInfo;
  bound: BoundResource[];
  sandboxes: SandboxInfo[];
  history: PlanHistoryEntry[];
  commits: CommitInfo[];
}

/** A plan with its bound resources (each with its sandbox), sandboxes, history and commits. */
export function encodePlanDetail(detail: PlanDetailInput): Wire {
  const byResource = new Map(detail.sandboxes.map((s) => [s.resourceId, s]));
  return {
    ...encodePlan(detail.plan),
    bound_resources: detail.bound.map((b) => encodeBoundSlot(b, byResource.get(b.resourceId))),
    sandboxes: toWire(detail.sandboxes),
    history: toWire(detail.history),
    commits: toWire(detail.commits),
  };
}

/** The doctor's checks, verdict and disk use by part. */
export function encodeDoctorReport(report: DoctorReport & { diskUse: Record<string, number> }): Wire {
  return { data_dir: report.dataDir, ok: report.ok, checks: toWire(report.checks), disk_use: toWire(report.diskUse) };
}

/**
 * One file's diff for `plans diff --json`: a text file's patch and its hunks, each with the id a
 * partial commit takes (`--hunks`), its `@@` numbers and its lines with their numbers (`--lines`).
 */
export function encodeFileDiff(diff: FileDiff): Wire {
  const head: Wire = { path: diff.path, old_path: diff.oldPath, against: diff.against, kind: diff.kind };
  if (diff.kind === 'binary') return { ...head, old_size: diff.oldSize, new_size: diff.newSize };
  if (diff.kind === 'too_large') return { ...head, old_size: diff.oldSize, new_size: diff.newSize, limit: diff.limit };
  return {
    ...head,
    additions: diff.additions,
    deletions: diff.deletions,
    patch: diff.patch,
    hunks: diff.hunks.map((hunk) => ({
      id: hunk.id,
      header: hunkHeader(hunk),
      old_start: hunk.oldStart,
      old_lines: hunk.oldLines,
      new_start: hunk.newStart,
      new_lines: hunk.newLines,
      lines: hunk.lines.map((line) => ({ kind: line.kind, old_no: line.oldNo, new_no: line.newNo, text: line.text, eol: line.eol })),
    })),
  };
}
