/**
 * Registry use cases: types, resources, projects, links and tools, with every rule of the model
 * checked before anything is written. Hosts call this; it never formats output.
 */
import type { Database } from 'better-sqlite3';
import { ulid } from 'ulid';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import {
  SANDBOX_STRATEGIES,
  type Project,
  type ProjectDetail,
  type Resource,
  type ResourceTypeSpec,
  type SandboxStrategy,
  type Tool,
  type ToolDefinition,
} from '../../shared/model.ts';
import type { ResolutionRegistry } from '../core/binding-resolution.ts';
import { checkIdentifier, checkPlainName, checkResourceName, checkTypeName } from '../core/names.ts';
import { DEFAULT_TYPE_STRATEGY } from '../core/strategy-defaults.ts';
import { formatToolFile, parseToolFile, type ParsedTool } from '../core/tool-file.ts';
import { assertValidParents, TypeGraph } from '../core/type-graph.ts';
import * as projects from '../registry/projects.ts';
import * as resources from '../registry/resources.ts';
import * as types from '../registry/resource-types.ts';
import * as tools from '../registry/tools.ts';
import { assertGitRoot, inspectLocation } from './location.ts';

/** Fields accepted when adding a type. */
export interface TypeInput {
  name: string;
  description?: string;
  parentTypes?: string[];
  handler?: string | null;
  sandboxStrategy?: SandboxStrategy;
}

/** Fields accepted when adding a resource. */
export interface ResourceInput {
  name: string;
  typeName: string;
  location: string;
  sandboxStrategy?: SandboxStrategy | null;
  description?: string;
}

/** Which registry entity changed, for listeners that refresh views. */
export type RegistryChange = 'types' | 'resources' | 'projects' | 'tools';

const HANDLER_SPEC = /^[A-Za-z0-9_.@/-]+:[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The registry's use cases over one open database. */
export class RegistryService {
  private readonly listeners = new Set<(change: RegistryChange) => void>();

  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Subscribes to changes made through this service; returns the unsubscribe function. */
  onChange(listener: (change: RegistryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // Types

  /** All resource types. */
  listTypes(): ResourceTypeSpec[] {
    return types.listTypes(this.db);
  }

  /** One type, or NotFoundError listing the known ones. */
  showType(name: string): ResourceTypeSpec {
    const type = types.getType(this.db, name);
    if (!type) {
      const known = this.listTypes().map((t) => t.name);
      throw new NotFoundError(`There is no resource type "${name}". Known types: ${known.join(', ')}.`, { name, known });
    }
    return type;
  }

  /** Adds a custom type after checking its name, parents (no cycles), handler and strategy (default copy_on_write). */
  addType(input: TypeInput): ResourceTypeSpec {
    const problem = checkTypeName(input.name);
    if (problem) throw new ValidationError(problem, { field: 'name' });
    if (types.getType(this.db, input.name)) throw new ConflictError(`Resource type "${input.name}" already exists: use update to change it.`, { field: 'name' });
    const stamp = this.stamp();
    const type: ResourceTypeSpec = {
      name: input.name,
      description: input.description ?? '',
      parentTypes: dedupe(input.parentTypes ?? []),
      handler: checkHandler(input.handler ?? null),
      sandboxStrategy: checkStrategy(input.sandboxStrategy ?? DEFAULT_TYPE_STRATEGY),
      builtIn: false,
      createdAt: stamp,
      updatedAt: stamp,
    };
    return this.writeType(type);
  }

  /** Changes a type; built-ins accept new parent types and description only. */
  updateType(name: string, patch: Partial<Omit<TypeInput, 'name'>>): ResourceTypeSpec {
    const current = this.showType(name);
    if (current.builtIn && (patch.handler !== undefined || patch.sandboxStrategy !== undefined)) {
      throw new ValidationError(
        `"${name}" is built in: its handler and sandbox strategy are fixed. Change parent types or the description, or set a strategy per resource.`,
      );
    }
    const next: ResourceTypeSpec = {
      ...current,
      description: patch.description ?? current.description,
      parentTypes: patch.parentTypes ? dedupe(patch.parentTypes) : current.parentTypes,
      handler: patch.handler !== undefined ? checkHandler(patch.handler) : current.handler,
      sandboxStrategy: patch.sandboxStrategy ? checkStrategy(patch.sandboxStrategy) : current.sandboxStrategy,
      updatedAt: this.stamp(),
    };
    return this.writeType(next);
  }

  /** Removes a custom type nothing refers to. */
  removeType(name: string): ResourceTypeSpec {
    const type = this.showType(name);
    if (type.builtIn) throw new ValidationError(`"${name}" is built in and cannot be removed.`);
    const dependents = types.typeDependents(this.db, name);
    const uses = describeDependents({
      resources: dependents.resources,
      'sub-types': dependents.subTypes,
      tools: dependents.tools,
    });
    if (uses) throw new ConflictError(`Resource type "${name}" is still used by ${uses}. Change or remove those first.`, dependents);
    types.deleteType(this.db, name);
    this.emit('types');
    return type;
  }

  private writeType(type: ResourceTypeSpec): ResourceTypeSpec {
    this.db
      .transaction(() => {
        assertValidParents(new TypeGraph(types.listTypes(this.db)), type);
        types.saveType(this.db, type);
      })
      .immediate();
    this.emit('types');
    return this.showType(type.name);
  }

  // Resources

  /** All resources. */
  listResources(): Resource[] {
    return resources.listResources(this.db);
  }

  /** Project names linking each resource, keyed by resource id. */
  projectsByResource(): Map<string, string[]> {
    return resources.projectNamesByResource(this.db);
  }

  /** One resource by name or id. */
  showResource(nameOrId: string): Resource {
    const resource = resources.findResource(this.db, nameOrId);
    if (!resource) throw new NotFoundError(`There is no resource "${nameOrId}": see the list with "bindery resources list".`, { nameOrId });
    return resource;
  }

  /** Registers a folder after checking name, type and location. */
  async addResource(input: ResourceInput): Promise<Resource> {
    const problem = checkResourceName(input.name);
    if (problem) throw new ValidationError(problem, { field: 'name' });
    this.showType(input.typeName);
    const location = await this.checkLocation(input.typeName, input.location);
    const stamp = this.stamp();
    const resource: Resource = {
      id: ulid(),
      name: input.name,
      typeName: input.typeName,
      location,
      sandboxStrategy: input.sandboxStrategy ? checkStrategy(input.sandboxStrategy) : null,
      description: input.description ?? '',
      createdAt: stamp,
      updatedAt: stamp,
    };
    this.db
      .transaction(() => {
        if (resources.findResource(this.db, resource.name)) {
          throw new ConflictError(`A resource named "${resource.name}" already exists: choose another name, or update that one.`, { field: 'name' });
        }
        resources.insertResource(this.db, resource);
      })
      .immediate();
    this.emit('resources');
    return resource;
  }

  /** Changes a resource; a new location or type is checked like a new registration. */
  async updateResource(nameOrId: string, patch: Partial<ResourceInput>): Promise<Resource> {
    const current = this.showResource(nameOrId);
    if (patch.name !== undefined) {
      const problem = checkResourceName(patch.name);
      if (problem) throw new ValidationError(problem, { field: 'name' });
    }
    const typeName = patch.typeName ?? current.typeName;
    if (patch.typeName !== undefined) this.showType(patch.typeName);
    const location =
      patch.location !== undefined || patch.typeName !== undefined
        ? await this.checkLocation(typeName, patch.location ?? current.location)
        : current.location;
    const next: Resource = {
      ...current,
      name: patch.name ?? current.name,
      typeName,
      location,
      sandboxStrategy: patch.sandboxStrategy === undefined ? current.sandboxStrategy : patch.sandboxStrategy && checkStrategy(patch.sandboxStrategy),
      description: patch.description ?? current.description,
      updatedAt: this.stamp(),
    };
    this.db
      .transaction(() => {
        const clash = resources.findResource(this.db, next.name);
        if (clash && clash.id !== next.id) throw new ConflictError(`A resource named "${next.name}" already exists: choose another name.`, { field: 'name' });
        resources.updateResource(this.db, next);
      })
      .immediate();
    this.emit('resources');
    return next;
  }

  /**
   * Unregisters a resource (its files are never touched). Refused while projects link it or
   * tools name it statically, unless forced; the result names what depended on it.
   */
  removeResource(nameOrId: string, options: { force?: boolean } = {}): { resource: Resource; unlinkedFrom: string[]; staticIn: string[] } {
    const resource = this.showResource(nameOrId);
    const dependents = resources.resourceDependents(this.db, resource);
    const uses = describeDependents({ projects: dependents.projects, 'tools (static slots)': dependents.tools });
    if (uses && !options.force) {
      throw new ConflictError(
        `Resource "${resource.name}" is used by ${uses}. Unlink it first, or remove it anyway with --force (the links go, and those tools will fail to bind).`,
        dependents,
      );
    }
    this.db.transaction(() => resources.deleteResource(this.db, resource.id)).immediate();
    this.emit('resources');
    return { resource, unlinkedFrom: dependents.projects, staticIn: dependents.tools };
  }

  private async checkLocation(typeName: string, location: string): Promise<string> {
    const info = await inspectLocation(location);
    if (typeName === 'git-checkout') assertGitRoot(info);
    return info.path;
  }

  // Projects

  /** All projects. */
  listProjects(): Project[] {
    return projects.listProjects(this.db);
  }

  /** One project by name or id. */
  findProject(nameOrId: string): Project {
    const project = projects.findProject(this.db, nameOrId);
    if (!project) throw new NotFoundError(`There is no project "${nameOrId}": see the list with "bindery projects list".`, { nameOrId });
    return project;
  }

  /** One project with its links. */
  showProject(nameOrId: string): ProjectDetail {
    const project = this.findProject(nameOrId);
    return { ...project, links: projects.projectLinks(this.db, project.id) };
  }

  /** Creates a project. */
  addProject(input: { name: string; description?: string }): Project {
    const problem = checkPlainName('project', input.name);
    if (problem) throw new ValidationError(problem, { field: 'name' });
    const stamp = this.stamp();
    const project: Project = { id: ulid(), name: input.name, description: input.description ?? '', agentMayCommit: false, createdAt: stamp, updatedAt: stamp };
    this.db
      .transaction(() => {
        if (projects.findProject(this.db, input.name)) throw new ConflictError(`A project named "${input.name}" already exists: choose another name.`, { field: 'name' });
        projects.insertProject(this.db, project);
      })
      .immediate();
    this.emit('projects');
    return project;
  }

  /** Renames or describes a project, or lets agents commit, undo and discard its plans (or not). */
  updateProject(nameOrId: string, patch: { name?: string; description?: string; agentMayCommit?: boolean }): Project {
    const current = this.findProject(nameOrId);
    if (patch.name !== undefined) {
      const problem = checkPlainName('project', patch.name);
      if (problem) throw new ValidationError(problem, { field: 'name' });
    }
    const next = {
      ...current,
      name: patch.name ?? current.name,
      description: patch.description ?? current.description,
      agentMayCommit: patch.agentMayCommit ?? current.agentMayCommit,
      updatedAt: this.stamp(),
    };
    this.db
      .transaction(() => {
        const clash = projects.findProject(this.db, next.name);
        if (clash && clash.id !== next.id) throw new ConflictError(`A project named "${next.name}" already exists: choose another name.`, { field: 'name' });
        projects.updateProject(this.db, next);
      })
      .immediate();
    this.emit('projects');
    return next;
  }

  /** Deletes a project and its links (the resources stay registered). */
  removeProject(nameOrId: string): ProjectDetail {
    const project = this.showProject(nameOrId);
    this.db.transaction(() => projects.deleteProject(this.db, project.id)).immediate();
    this.emit('projects');
    return project;
  }

  /** Links a resource to a project, or changes the alias of an existing link. */
  link(projectRef: string, resourceRef: string, alias: string | null = null): ProjectDetail {
    const project = this.findProject(projectRef);
    const resource = this.showResource(resourceRef);
    if (alias !== null) {
      const problem = checkIdentifier('alias', alias);
      if (problem) throw new ValidationError(problem, { field: 'alias' });
    }
    this.db
      .transaction(() => {
        const holder = alias === null ? undefined : projects.resourceWithAlias(this.db, project.id, alias);
        if (holder && holder !== resource.id) {
          const other = resources.findResource(this.db, holder);
          throw new ConflictError(
            `Alias "${alias}" is already used in project "${project.name}" by ${other?.name ?? holder}: aliases are unique within a project. Clear it there first.`,
            { field: 'alias', alias, resource: other?.name },
          );
        }
        const existing = projects.getLink(this.db, project.id, resource.id);
        projects.saveLink(this.db, { projectId: project.id, resourceId: resource.id, alias, createdAt: existing?.createdAt ?? this.stamp() });
      })
      .immediate();
    this.emit('projects');
    return this.showProject(project.id);
  }

  /** Removes a link. */
  unlink(projectRef: string, resourceRef: string): ProjectDetail {
    const project = this.findProject(projectRef);
    const resource = this.showResource(resourceRef);
    if (!projects.getLink(this.db, project.id, resource.id)) {
      throw new NotFoundError(`Resource "${resource.name}" is not linked to project "${project.name}".`);
    }
    projects.deleteLink(this.db, project.id, resource.id);
    this.emit('projects');
    return this.showProject(project.id);
  }

  // Tools

  /** All tools. */
  listTools(): Tool[] {
    return tools.listTools(this.db);
  }

  /** One tool by name or id. */
  showTool(nameOrId: string): Tool {
    const tool = tools.findTool(this.db, nameOrId);
    if (!tool) throw new NotFoundError(`There is no tool "${nameOrId}": import one with "bindery tools import <file>".`, { nameOrId });
    return tool;
  }

  /**
   * Registers every tool in a definition file. All are checked (types known, static resources
   * registered and compatible) before any is written; an existing tool is replaced only when
   * `replace` is set.
   */
  importTools(text: string, file: string, options: { replace?: boolean } = {}): Tool[] {
    const saved: Tool[] = [];
    this.db
      .transaction(() => {
        for (const definition of this.checkTools(text, file, options)) {
          const existing = tools.findTool(this.db, definition.name);
          const stamp = this.stamp();
          const tool: Tool = { id: existing?.id ?? ulid(), ...definition, createdAt: existing?.createdAt ?? stamp, updatedAt: stamp };
          tools.saveTool(this.db, tool);
          saved.push(tool);
        }
      })
      .immediate();
    this.emit('tools');
    return saved;
  }

  /**
   * Checks a tool file exactly as import does (file rules, then registry rules) without writing,
   * throwing the same ValidationError; returns the definitions it would register.
   */
  checkTools(text: string, file: string, options: { replace?: boolean } = {}): ToolDefinition[] {
    const parsed = parseToolFile(text, file);
    this.checkAgainstRegistry(parsed, file, options.replace ?? false);
    return parsed.map((tool) => tool.definition);
  }

  /** The tool written back in the file format. */
  exportTool(nameOrId: string): string {
    const { name, description, resourceSlots, run } = this.showTool(nameOrId);
    return formatToolFile([{ name, description, resourceSlots, run }]);
  }

  /** Unregisters a tool. */
  removeTool(nameOrId: string): Tool {
    const tool = this.showTool(nameOrId);
    tools.deleteTool(this.db, tool.id);
    this.emit('tools');
    return tool;
  }

  private checkAgainstRegistry(parsed: ParsedTool[], file: string, replace: boolean): void {
    const knownTypes = types.listTypes(this.db).map((type) => type.name);
    const graph = new TypeGraph(types.listTypes(this.db));
    const problems: Array<{ line: number | null; field: string; message: string }> = [];
    for (const tool of parsed) {
      const { definition } = tool;
      if (!replace && tools.findTool(this.db, definition.name)) {
        problems.push({ ...tool.locate(['name']), message: `Tool "${definition.name}" is already registered: import with --replace to update it.` });
      }
      definition.resourceSlots.forEach((slot, index) => {
        if (!graph.has(slot.resourceType)) {
          problems.push({
            ...tool.locate(['resource_slots', index, 'resource_type']),
            message: `Unknown resource type "${slot.resourceType}": add it first (bindery types add ${slot.resourceType}) or use one of ${knownTypes.join(', ')}.`,
          });
        }
        if (slot.binding !== 'static' || !slot.staticResource) return;
        const resource = resources.findResource(this.db, slot.staticResource);
        const where = tool.locate(['resource_slots', index, 'static_resource']);
        if (!resource) {
          problems.push({
            ...where,
            message: `Static resource "${slot.staticResource}" is not registered: register it first (bindery resources add ${slot.staticResource} --type ${slot.resourceType} --location <dir>).`,
          });
        } else if (!graph.compatibilityPath(resource.typeName, slot.resourceType)) {
          problems.push({
            ...where,
            message: `Static resource "${resource.name}" is of type ${resource.typeName}, which does not satisfy ${slot.resourceType}: pick a resource of type ${slot.resourceType} or a sub-type.`,
          });
        }
      });
    }
    if (problems.length === 0) return;
    const lines = problems.map((p) => `  ${file}${p.line !== null ? `:${p.line}` : ''}${p.field ? ` ${p.field}` : ''}: ${p.message}`);
    throw new ValidationError(`Tool file ${file} cannot be registered:\n${lines.join('\n')}`, {
      file,
      issues: problems.map((p) => ({ file, ...p })),
    });
  }

  // Resolution

  /** The registry as binding resolution sees it. */
  resolutionRegistry(): ResolutionRegistry {
    return {
      typeGraph: () => new TypeGraph(types.listTypes(this.db)),
      findResource: (nameOrId) => resources.findResource(this.db, nameOrId),
      projectLinks: (projectId) => projects.projectLinks(this.db, projectId),
    };
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  private emit(change: RegistryChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

function dedupe(values: string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter(Boolean))];
}

function checkStrategy(strategy: string): SandboxStrategy {
  if ((SANDBOX_STRATEGIES as readonly string[]).includes(strategy)) return strategy as SandboxStrategy;
  throw new ValidationError(`Unknown sandbox strategy "${strategy}": use one of ${SANDBOX_STRATEGIES.join(', ')}.`, { field: 'sandbox_strategy' });
}

function checkHandler(handler: string | null): string | null {
  if (handler === null || handler === '') return null;
  if (HANDLER_SPEC.test(handler)) return handler;
  throw new ValidationError(`Handler "${handler}" must look like "module:Export", e.g. "my-handler.js:MyHandler".`, { field: 'handler' });
}

function describeDependents(groups: Record<string, string[]>): string {
  return Object.entries(groups)
    .filter(([, names]) => names.length > 0)
    .map(([label, names]) => `${label} ${names.join(', ')}`)
    .join('; ');
}
