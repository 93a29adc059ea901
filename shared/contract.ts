/**
 * The API contract (DESIGN.md 3.2): every method once, with its zod input schema and output type.
 * Main validates inputs with these schemas at the host boundary; hosts, preload and renderer
 * derive their channels, functions and types from this one map.
 */
import { z } from 'zod';
import type { ErrorPayload } from './errors.ts';
import type {
  AppInfo,
  DoctorReport,
  FolderInspection,
  ResourceListItem,
  ResourceRemoval,
  ResourceStatus,
  ToolExport,
  ToolValidation,
} from './dto.ts';
import {
  SANDBOX_STRATEGIES,
  type BindingResult,
  type Project,
  type ProjectDetail,
  type ResourceTypeSpec,
  type Tool,
} from './model.ts';

/** One method: its input schema, a sentence for reviewers, and its output type (type-level only). */
export interface MethodSpec<I extends z.ZodType, O> {
  input: I;
  description: string;
  /** Never set at run time: carries the output type. */
  readonly output?: O;
}

/** Declares a method whose output type is `O`. */
function method<O>() {
  return <I extends z.ZodType>(input: I, description: string): MethodSpec<I, O> => ({ input, description });
}

const none = z.strictObject({});
const ref = z.string().trim().min(1, 'is required: a name or id');
const text = z.string().max(100_000);
const strategy = z.enum(SANDBOX_STRATEGIES);
const typeFields = {
  description: text.optional(),
  parentTypes: z.array(z.string().min(1)).max(100).optional(),
  handler: z.string().nullable().optional(),
  sandboxStrategy: strategy.optional(),
};
const toolSource = {
  text: z.string().max(1_000_000, 'is too long: a tool file is at most 1 MB'),
  fileName: z.string().trim().min(1).max(255),
  replace: z.boolean().optional(),
};

/** Every API method. Add new areas (plans, sandboxes) here; everything else follows. */
export const contract = {
  // Resource types
  listTypes: method<ResourceTypeSpec[]>()(none, 'All resource types, built-ins included.'),
  addType: method<ResourceTypeSpec>()(z.strictObject({ name: z.string(), ...typeFields }), 'Adds a custom resource type.'),
  updateType: method<ResourceTypeSpec>()(
    z.strictObject({ name: ref, ...typeFields }),
    'Changes a type; built-ins accept parent types and description only.',
  ),
  removeType: method<ResourceTypeSpec>()(z.strictObject({ name: ref }), 'Removes a custom type nothing uses.'),

  // Resources
  listResources: method<ResourceListItem[]>()(none, 'All resources with the projects linking each.'),
  showResource: method<ResourceListItem>()(z.strictObject({ ref }), 'One resource by name or id.'),
  addResource: method<ResourceListItem>()(
    z.strictObject({
      name: z.string(),
      typeName: z.string().min(1),
      location: z.string().min(1),
      sandboxStrategy: strategy.nullable().optional(),
      description: text.optional(),
    }),
    'Registers a folder after checking name, type and location.',
  ),
  updateResource: method<ResourceListItem>()(
    z.strictObject({
      ref,
      name: z.string().optional(),
      typeName: z.string().min(1).optional(),
      location: z.string().min(1).optional(),
      sandboxStrategy: strategy.nullable().optional(),
      description: text.optional(),
    }),
    'Changes a resource; sandboxStrategy null returns to the type default.',
  ),
  removeResource: method<ResourceRemoval>()(
    z.strictObject({ ref, force: z.boolean().optional() }),
    'Unregisters a resource (files untouched); refused while used unless forced.',
  ),
  inspectFolder: method<FolderInspection>()(
    z.strictObject({ path: z.string().min(1).max(4096) }),
    'Checks a folder for the register dialog: exists, directory, git root, suggested type and name.',
  ),
  resourceStatuses: method<ResourceStatus[]>()(
    z.strictObject({ ids: z.array(z.string().min(1)).max(100_000).optional() }),
    'Live folder facts (missing, git branch, dirty count), computed lazily per resource.',
  ),

  // Projects
  listProjects: method<ProjectDetail[]>()(none, 'All projects with their links.'),
  showProject: method<ProjectDetail>()(z.strictObject({ ref }), 'One project with its links.'),
  addProject: method<Project>()(z.strictObject({ name: z.string(), description: text.optional() }), 'Creates a project.'),
  updateProject: method<Project>()(
    z.strictObject({ ref, name: z.string().optional(), description: text.optional() }),
    'Renames or describes a project.',
  ),
  removeProject: method<ProjectDetail>()(z.strictObject({ ref }), 'Deletes a project and its links; resources stay.'),
  linkResource: method<ProjectDetail>()(
    z.strictObject({ project: ref, resource: ref, alias: z.string().nullable().optional() }),
    'Links a resource to a project, or changes the alias of an existing link.',
  ),
  unlinkResource: method<ProjectDetail>()(z.strictObject({ project: ref, resource: ref }), 'Removes a link.'),

  // Tools
  listTools: method<Tool[]>()(none, 'All tools.'),
  showTool: method<Tool>()(z.strictObject({ ref }), 'One tool with its slots.'),
  importTools: method<Tool[]>()(z.strictObject(toolSource), 'Registers every tool in a YAML or JSON text.'),
  validateTools: method<ToolValidation>()(
    z.strictObject(toolSource),
    'Checks a tool text like import would (parse and registry rules) without writing.',
  ),
  exportTool: method<ToolExport>()(z.strictObject({ ref }), 'A tool written back as YAML.'),
  removeTool: method<Tool>()(z.strictObject({ ref }), 'Unregisters a tool.'),

  // Bindings
  inspectBindings: method<BindingResult[]>()(
    z.strictObject({ tool: ref, project: ref, params: z.record(z.string(), z.string()).optional() }),
    'How each slot of a tool binds in a project, errors included, with explanations.',
  ),

  // System
  doctor: method<DoctorReport>()(none, 'Health checks: git, data directory, database.'),
  appInfo: method<AppInfo>()(none, 'Version, data directory and host kind.'),
} as const;

/** The contract's type. */
export type Contract = typeof contract;

/** Every method name. */
export type MethodName = keyof Contract;

/** Method names in declaration order, for hosts that register one route or channel each. */
export const METHOD_NAMES = Object.keys(contract) as MethodName[];

/** What a caller sends (before schema defaults apply). */
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>;

/** What a handler receives (after validation). */
export type MethodParams<M extends MethodName> = z.infer<Contract[M]['input']>;

/** What a method returns. */
export type MethodOutput<M extends MethodName> = NonNullable<Contract[M]['output']>;

/** Arguments of a client call: the input is optional when every field of it is. */
export type MethodArgs<M extends MethodName> = Record<string, never> extends MethodInput<M> ? [input?: MethodInput<M>] : [input: MethodInput<M>];

/** The API as the renderer calls it. */
export type BinderyApi = { [M in MethodName]: (...args: MethodArgs<M>) => Promise<MethodOutput<M>> };

/** The API as main implements it: validated input in, result (or its promise) out. */
export type ApiHandlers = { [M in MethodName]: (input: MethodParams<M>) => MethodOutput<M> | Promise<MethodOutput<M>> };

/** A call's outcome on the wire: errors travel as payloads, never as thrown exceptions. */
export type ApiResult<T = unknown> = { ok: true; value: T } | { ok: false; error: ErrorPayload };

/** True when `name` is a method of the contract (guards untyped input from the wire). */
export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(contract, name);
}
