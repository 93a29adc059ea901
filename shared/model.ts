/**
 * The domain's data shapes (DESIGN.md section 1), in TypeScript spelling. The core, the hosts
 * and the renderer all speak these; only `main/core/codec.ts` knows the reference spelling.
 */

/** How a resource is isolated for a plan. */
export const SANDBOX_STRATEGIES = ['git_worktree', 'copy_on_write', 'none'] as const;
export type SandboxStrategy = (typeof SANDBOX_STRATEGIES)[number];

/** What a tool may do with a bound resource. */
export const ACCESS_MODES = ['read_only', 'read_write', 'write_only'] as const;
export type AccessMode = (typeof ACCESS_MODES)[number];

/** How a slot finds its resource. */
export const BINDING_MODES = ['contextual', 'static', 'parameter'] as const;
export type BindingMode = (typeof BINDING_MODES)[number];

/** A kind of resource, with its handler and default sandbox strategy. */
export interface ResourceTypeSpec {
  name: string;
  description: string;
  parentTypes: string[];
  handler: string | null;
  sandboxStrategy: SandboxStrategy;
  builtIn: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A registered place on disk. */
export interface Resource {
  id: string;
  name: string;
  typeName: string;
  location: string;
  sandboxStrategy: SandboxStrategy | null;
  description: string;
  createdAt: string;
  updatedAt: string;
}

/** A named group of linked resources. */
export interface Project {
  id: string;
  name: string;
  description: string;
  /** Agents (through MCP) may commit, undo and discard this project's plans; off by default. */
  agentMayCommit: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A resource linked to a project, with the project's alias for it. */
export interface ProjectLink {
  projectId: string;
  resourceId: string;
  alias: string | null;
  createdAt: string;
}

/** A project with its links resolved to resources. */
export interface ProjectDetail extends Project {
  links: Array<ProjectLink & { resource: Resource }>;
}

/** One resource requirement of a tool. */
export interface ResourceSlot {
  name: string;
  resourceType: string;
  access: AccessMode;
  binding: BindingMode;
  staticResource: string | null;
  required: boolean;
}

/** A tool definition as registered. */
export interface Tool {
  id: string;
  name: string;
  description: string;
  resourceSlots: ResourceSlot[];
  run: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A tool as written in a file, before registration gives it an id. */
export type ToolDefinition = Pick<Tool, 'name' | 'description' | 'resourceSlots' | 'run'>;

/** Why one candidate resource was or was not compatible with a slot. */
export interface CandidateExplanation {
  resourceId: string;
  resourceName: string;
  resourceType: string;
  alias: string | null;
  compatible: boolean;
  /** The type path that made it compatible, e.g. `['fs-directory', 'git-checkout']`. */
  typePath: string[] | null;
  reason: string;
  chosen: boolean;
}

/** How a slot's binding was decided, for people. */
export interface BindingExplanation {
  candidates: CandidateExplanation[];
  rule: string;
  summary: string;
  fix: string | null;
}

/** The outcome of resolving one slot. */
export interface BindingResult {
  slotName: string;
  bindingMode: BindingMode;
  resourceId: string | null;
  resourceType: string;
  access: AccessMode;
  required: boolean;
  deferred: boolean;
  error: string | null;
  explanation: BindingExplanation;
}

/** A slot bound to a provisioned sandbox. */
export interface BoundResource {
  slotName: string;
  resourceId: string;
  resourceType: string;
  sandboxPath: string;
  access: AccessMode;
}
