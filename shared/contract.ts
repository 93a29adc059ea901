/**
 * The API contract (DESIGN.md 3.2): every method once, with its zod input schema and output type.
 * Main validates inputs with these schemas at the host boundary; hosts, preload and renderer
 * derive their channels, functions and types from this one map.
 */
import { VERSION_PATTERN } from './change-version.ts';
import { z } from 'zod';
import type { ErrorPayload } from './errors.ts';
import {
  PLAN_STATUS_VALUES,
  RESOLUTION_VALUES,
  type ActivityItem,
  type CommitReport,
  type DiscardReport,
  type FileDiffView,
  type PlanInfo,
  type PlanStarted,
  type PlanView,
  type MergePreview,
  type RevertReport,
  type RunInfo,
  type SandboxChangeDelta,
  type SandboxChangeList,
  type SandboxInfo,
  type TrashItem,
  type UndoReport,
} from './dto.ts';
import { NOTE_BODY_MAX, type ReviewNote, type ReviewState, type ViewedMark } from './review-dto.ts';
import type {
  AppInfo,
  DoctorReport,
  FolderInspection,
  ResourceAdded,
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

const params = z.record(z.string().min(1).max(200), z.string().min(1).max(1000));
// A path inside a sandbox: relative, no parent steps (the core checks containment again).
const relPath = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (p) => !p.startsWith('/') && !p.split('/').includes('..') && !p.includes('\0'),
    'must be a relative path inside the sandbox',
  );
const resolutions = z.record(relPath, z.enum(RESOLUTION_VALUES));
// A change list's version, as SandboxChangeList.version gives it (`<count>-<hash>`).
const changeVersion = z
  .string()
  .regex(VERSION_PATTERN, 'is not a change-list version: send the version of the change list you reviewed');
// A partial commit of one text file (issue 23): hunks by id and changed lines by number, as
// `plans diff` prints them (shared/patch-selection.ts).
const lineRange = z
  .strictObject({
    side: z.enum(['old', 'new', 'both']),
    from: z.number().int().min(1),
    to: z.number().int().min(1),
  })
  .refine((r) => r.to >= r.from, 'ends before it starts');
const selection = z
  .strictObject({
    hunks: z.array(z.number().int().min(1)).max(100_000).optional(),
    lines: z.array(lineRange).max(100_000).optional(),
    texts: z.string().max(100).optional(),
  })
  .refine((s) => (s.hunks?.length ?? 0) + (s.lines?.length ?? 0) > 0, 'selects nothing: choose hunks or lines, or leave the file out');
// Which changes a review shows (ReviewScope): all, those since the last review, or one run's.
const reviewScope = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('all') }),
  z.strictObject({ kind: z.literal('since_review') }),
  z.strictObject({ kind: z.literal('run'), runId: ref }),
]);
const noteBody = z.string().trim().min(1, 'is empty: write what should change').max(NOTE_BODY_MAX);
const gitMessage = z
  .string()
  .trim()
  .min(1, 'is empty: write a commit message or leave the option off')
  .max(10_000);

/** Every API method. Add new areas (plans, sandboxes) here; everything else follows. */
export const contract = {
  // Resource types
  listTypes: method<ResourceTypeSpec[]>()(none, 'All resource types, built-ins included.'),
  addType: method<ResourceTypeSpec>()(
    z.strictObject({ name: z.string(), ...typeFields }),
    'Adds a custom resource type; its sandboxStrategy defaults to copy_on_write.',
  ),
  updateType: method<ResourceTypeSpec>()(
    z.strictObject({ name: ref, ...typeFields }),
    'Changes a type; built-ins accept parent types and description only.',
  ),
  removeType: method<ResourceTypeSpec>()(
    z.strictObject({ name: ref }),
    'Removes a custom type nothing uses.',
  ),

  // Resources
  listResources: method<ResourceListItem[]>()(none, 'All resources with the projects linking each.'),
  showResource: method<ResourceListItem>()(z.strictObject({ ref }), 'One resource by name or id.'),
  addResource: method<ResourceAdded>()(
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
  addProject: method<Project>()(
    z.strictObject({ name: z.string(), description: text.optional() }),
    'Creates a project.',
  ),
  updateProject: method<Project>()(
    z.strictObject({ ref, name: z.string().optional(), description: text.optional(), agentMayCommit: z.boolean().optional() }),
    'Renames or describes a project, or lets agents (MCP) commit, undo and discard its plans.',
  ),
  removeProject: method<ProjectDetail>()(
    z.strictObject({ ref }),
    'Deletes a project and its links; resources stay.',
  ),
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

  // Plans and sandboxes (issue 6): provision, review, commit, undo, discard, trash, run, activity.
  createPlan: method<PlanStarted>()(
    z.strictObject({ tool: ref, project: ref, params: params.optional(), run: z.boolean().optional() }),
    "Binds the tool in the project and starts provisioning; returns the plan id at once, progress follows as events; with run, the tool's run command starts once provisioning succeeds.",
  ),
  cancelPlan: method<{ cancelled: boolean }>()(
    z.strictObject({ plan: ref }),
    'Stops a plan that is still provisioning; what was made is removed.',
  ),
  listPlans: method<PlanInfo[]>()(
    z.strictObject({
      status: z.enum(PLAN_STATUS_VALUES).optional(),
      tool: z.string().max(200).optional(),
      project: z.string().max(200).optional(),
      limit: z.number().int().min(1).max(10_000).optional(),
    }),
    'Plans, newest first, optionally by status, tool or project.',
  ),
  showPlan: method<PlanView>()(
    z.strictObject({ plan: ref }),
    'One plan: bound slots, sandboxes, history, commits, progress and last run.',
  ),
  planChanges: method<SandboxChangeList[]>()(
    z.strictObject({ plan: ref, sandbox: ref.optional(), scope: reviewScope.optional() }),
    "The change lists of a plan's live sandboxes (or of one), each path clean or in conflict; with scope, only the changes since the last review or of one run.",
  ),
  changesSince: method<SandboxChangeDelta>()(
    z.strictObject({ plan: ref, sandbox: ref, since: changeVersion.optional() }),
    "One sandbox's change list since the version the client holds: unchanged, only what changed, or the whole list.",
  ),
  watchPlan: method<{ watching: number; expiresInMs: number }>()(
    z.strictObject({ plan: ref }),
    "Watches the plan's sandboxes for a minute (call again to renew); changes arrive as sandboxChanged events.",
  ),
  fileDiff: method<FileDiffView>()(
    z.strictObject({
      plan: ref,
      sandbox: ref,
      path: relPath,
      against: z.enum(['base', 'original']).optional(),
      full: z.boolean().optional(),
      scope: reviewScope.optional(),
    }),
    "One changed file for the diff view: both texts, binary sizes or image data; large texts only with full; with a run's scope, that run's change of the file.",
  ),
  commitSandbox: method<CommitReport[]>()(
    z.strictObject({
      plan: ref,
      sandbox: ref,
      paths: z.array(relPath).max(100_000).optional(),
      resolutions: resolutions.optional(),
      gitMessage: gitMessage.optional(),
      expectedVersion: changeVersion.optional(),
      selections: z.record(relPath, selection).optional(),
    }),
    "Writes a sandbox's changes (all without paths; an empty paths is refused) to its original; conflicts need a resolution first; with expectedVersion, a change list other than the one reviewed is refused; a path in selections takes only the chosen hunks and lines of its text change, the rest stays pending in the sandbox.",
  ),
  commitPlan: method<CommitReport[]>()(
    z.strictObject({
      plan: ref,
      resolutions: resolutions.optional(),
      gitMessage: gitMessage.optional(),
      expectedVersions: z.record(ref, changeVersion).optional(),
    }),
    'Commits every sandbox of a plan, all checked first; nothing is written if any path is in unresolved conflict, or, with expectedVersions (sandbox -> version), if any change list is not the one reviewed.',
  ),
  undoCommit: method<UndoReport>()(
    z.strictObject({ plan: ref, sandbox: ref }),
    'Undoes the last commit of a sandbox from its backups; a git commit it made stays on the branch (see revertGitCommit).',
  ),
  revertGitCommit: method<RevertReport>()(
    z.strictObject({ plan: ref, sandbox: ref, commit: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, 'is a full git commit id') }),
    "Makes a revert commit on the original's current branch for the git commit of an undone commit of this sandbox, when it applies cleanly; the working tree is not touched.",
  ),
  mergePreview: method<MergePreview>()(
    z.strictObject({ plan: ref, sandbox: ref, path: relPath }),
    'Tries the three-way merge of one conflicting file without writing: whether Merge will succeed, and the conflicts with base, original and sandbox.',
  ),
  discardSandbox: method<DiscardReport[]>()(
    z.strictObject({
      plan: ref,
      sandbox: ref,
      confirm: z.boolean().optional(),
      force: z.boolean().optional(),
    }),
    'Discards a sandbox; with changes it first returns their counts and needs confirm; changes go to the trash.',
  ),
  discardPlan: method<DiscardReport[]>()(
    z.strictObject({ plan: ref, confirm: z.boolean().optional(), force: z.boolean().optional() }),
    'Discards every live sandbox of a plan, all checked first, with the same confirmation as discardSandbox.',
  ),
  listTrash: method<TrashItem[]>()(none, 'Discarded sandbox changes still recoverable, newest first.'),
  restoreTrash: method<SandboxInfo>()(
    z.strictObject({ id: ref }),
    'Puts a discarded sandbox back; its plan is ready again.',
  ),
  purgeTrash: method<TrashItem[]>()(
    z.strictObject({ all: z.boolean().optional() }),
    'Deletes expired trash entries, or all with all.',
  ),
  runTool: method<RunInfo>()(
    z.strictObject({ plan: ref, timeoutSeconds: z.number().int().min(1).max(86_400).optional() }),
    "Starts the tool's run command in the plan's sandboxes; output follows as runOutput events.",
  ),
  stopRun: method<RunInfo>()(
    z.strictObject({ runId: ref }),
    'Stops a running tool command and everything it started.',
  ),
  showRun: method<RunInfo>()(
    z.strictObject({ runId: ref, afterSeq: z.number().int().min(-1).optional() }),
    "A run's state and its output chunks after afterSeq (all kept output without it).",
  ),
  activity: method<ActivityItem[]>()(
    z.strictObject({ plan: ref.optional(), limit: z.number().int().min(1).max(10_000).optional() }),
    'The log of plans, commits, undos, discards and restores, newest first.',
  ),
  revealSandbox: method<{ opened: boolean }>()(
    z.strictObject({ plan: ref, sandbox: ref }),
    'Opens the sandbox folder in the OS file manager (desktop app only; the web host refuses and says so).',
  ),

  // Review (issue 23): notes back to the tool, viewed marks, run checkpoints.
  listNotes: method<ReviewNote[]>()(
    z.strictObject({ plan: ref, sandbox: ref.optional(), status: z.enum(['open', 'resolved']).optional() }),
    "A plan's review notes (or one sandbox's), oldest first, each marked outdated when its lines changed.",
  ),
  addNote: method<ReviewNote>()(
    z
      .strictObject({
        plan: ref,
        sandbox: ref.optional(),
        path: relPath.optional(),
        side: z.enum(['old', 'new']).optional(),
        fromLine: z.number().int().min(1).optional(),
        toLine: z.number().int().min(1).optional(),
        body: noteBody,
      })
      .refine((n) => n.path === undefined || n.sandbox !== undefined, 'a note on a file needs its sandbox')
      .refine((n) => (n.side === undefined) === (n.fromLine === undefined), 'a note on lines needs both side and fromLine'),
    'Adds a note on the whole plan, a sandbox, a file, or lines of one side of a diff (their text is kept as the anchor).',
  ),
  updateNote: method<ReviewNote>()(
    z.strictObject({ id: ref, body: noteBody.optional(), status: z.enum(['open', 'resolved']).optional() }),
    "Edits a note's text, or resolves or reopens it.",
  ),
  deleteNote: method<{ deleted: boolean }>()(z.strictObject({ id: ref }), 'Deletes a note.'),
  reviewState: method<ReviewState>()(
    z.strictObject({ plan: ref, sandbox: ref, scope: reviewScope.optional() }),
    "A sandbox's viewed marks (stale when the file changed after), the last review's time, the tool's runs with checkpoints, and with scope the paths it shows.",
  ),
  markViewed: method<ViewedMark[]>()(
    z.strictObject({ plan: ref, sandbox: ref, paths: z.array(relPath).min(1).max(100_000), viewed: z.boolean() }),
    'Marks files viewed as they are now (or clears the marks); returns the marks of those paths.',
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
export type MethodArgs<M extends MethodName> =
  Record<string, never> extends MethodInput<M> ? [input?: MethodInput<M>] : [input: MethodInput<M>];

/** The API as the renderer calls it. */
export type BinderyApi = { [M in MethodName]: (...args: MethodArgs<M>) => Promise<MethodOutput<M>> };

/** The API as main implements it: validated input in, result (or its promise) out. */
export type ApiHandlers = {
  [M in MethodName]: (input: MethodParams<M>) => MethodOutput<M> | Promise<MethodOutput<M>>;
};

/** A call's outcome on the wire: errors travel as payloads, never as thrown exceptions. */
export type ApiResult<T = unknown> = { ok: true; value: T } | { ok: false; error: ErrorPayload };

/** True when `name` is a method of the contract (guards untyped input from the wire). */
export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(contract, name);
}
