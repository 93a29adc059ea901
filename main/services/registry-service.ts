/**
 * Registry use cases: types, resources, projects, links and tools, with every rule of the model
 * checked before anything is written. Hosts call this; it never formats output. Each entity's
 * rules live in its own module (type-, resource-, project-, tool-registry.ts); this is the face.
 */
import type { Database } from 'better-sqlite3';
import type { ResourceRemoval } from '../../shared/dto.ts';
import type { Project, ProjectDetail, Resource, ResourceTypeSpec, Tool, ToolDefinition } from '../../shared/model.ts';
import type { ResolutionRegistry } from '../core/binding-resolution.ts';
import * as projects from '../registry/projects.ts';
import * as resources from '../registry/resources.ts';
import * as types from '../registry/resource-types.ts';
import * as tools from '../registry/tools.ts';
import * as projectRules from './project-registry.ts';
import type { RegistryChange, RegistryContext } from './registry-common.ts';
import * as resourceRules from './resource-registry.ts';
import type { Registration, ResourceInput } from './resource-registry.ts';
import * as toolRules from './tool-registry.ts';
import * as typeRules from './type-registry.ts';
import type { TypeInput } from './type-registry.ts';

export type { RegistryChange } from './registry-common.ts';
export type { Registration, ResourceInput } from './resource-registry.ts';
export type { TypeInput } from './type-registry.ts';

/** The registry's use cases over one open database. */
export class RegistryService {
  private readonly listeners = new Set<(change: RegistryChange) => void>();
  private readonly context: RegistryContext;

  constructor(
    private readonly db: Database,
    now: () => Date = () => new Date(),
  ) {
    this.context = {
      db,
      stamp: () => now().toISOString(),
      emit: (change) => {
        for (const listener of this.listeners) listener(change);
      },
    };
  }

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
    return typeRules.showType(this.context, name);
  }

  /** Adds a custom type after checking its name, parents (no cycles), handler and strategy (default copy_on_write). */
  addType(input: TypeInput): ResourceTypeSpec {
    return typeRules.addType(this.context, input);
  }

  /** Changes a type; built-ins accept new parent types and description only. */
  updateType(name: string, patch: Partial<Omit<TypeInput, 'name'>>): ResourceTypeSpec {
    return typeRules.updateType(this.context, name, patch);
  }

  /** Removes a custom type nothing refers to. */
  removeType(name: string): ResourceTypeSpec {
    return typeRules.removeType(this.context, name);
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
    return resourceRules.showResource(this.context, nameOrId);
  }

  /** Registers a folder after checking name, type and location; see `register` for the warning of a folder registered twice. */
  async addResource(input: ResourceInput): Promise<Resource> {
    return (await this.register(input)).resource;
  }

  /** Registers a folder like addResource, and warns (naming them) when other resources already point at it. */
  register(input: ResourceInput): Promise<Registration> {
    return resourceRules.registerResource(this.context, input);
  }

  /** Changes a resource; a new location or type is checked like a new registration. */
  updateResource(nameOrId: string, patch: Partial<ResourceInput>): Promise<Resource> {
    return resourceRules.updateResource(this.context, nameOrId, patch);
  }

  /**
   * Unregisters a resource (its files are never touched). Refused while projects link it or
   * tools name it statically, unless forced; the result names what depended on it.
   */
  removeResource(nameOrId: string, options: { force?: boolean } = {}): ResourceRemoval {
    return resourceRules.removeResource(this.context, nameOrId, options);
  }

  // Projects

  /** All projects. */
  listProjects(): Project[] {
    return projects.listProjects(this.db);
  }

  /** One project by name or id. */
  findProject(nameOrId: string): Project {
    return projectRules.findProject(this.context, nameOrId);
  }

  /** One project with its links. */
  showProject(nameOrId: string): ProjectDetail {
    return projectRules.showProject(this.context, nameOrId);
  }

  /** Creates a project. */
  addProject(input: { name: string; description?: string }): Project {
    return projectRules.addProject(this.context, input);
  }

  /** Renames or describes a project, or lets agents commit, undo and discard its plans (or not). */
  updateProject(nameOrId: string, patch: { name?: string; description?: string; agentMayCommit?: boolean }): Project {
    return projectRules.updateProject(this.context, nameOrId, patch);
  }

  /** Deletes a project and its links (the resources stay registered). */
  removeProject(nameOrId: string): ProjectDetail {
    return projectRules.removeProject(this.context, nameOrId);
  }

  /** Links a resource to a project, or changes the alias of an existing link. */
  link(projectRef: string, resourceRef: string, alias: string | null = null): ProjectDetail {
    return projectRules.link(this.context, projectRef, resourceRef, alias);
  }

  /** Removes a link. */
  unlink(projectRef: string, resourceRef: string): ProjectDetail {
    return projectRules.unlink(this.context, projectRef, resourceRef);
  }

  // Tools

  /** All tools. */
  listTools(): Tool[] {
    return tools.listTools(this.db);
  }

  /** One tool by name or id. */
  showTool(nameOrId: string): Tool {
    return toolRules.showTool(this.context, nameOrId);
  }

  /** Registers every tool in a definition file, all checked first; an existing tool is replaced only with `replace`. */
  importTools(text: string, file: string, options: { replace?: boolean } = {}): Promise<Tool[]> {
    return toolRules.importTools(this.context, text, file, options);
  }

  /** Checks a tool file exactly as import does, without writing; returns the definitions it would register. */
  checkTools(text: string, file: string, options: { replace?: boolean } = {}): Promise<ToolDefinition[]> {
    return toolRules.checkTools(this.context, text, file, options);
  }

  /** The tool written back in the file format. */
  exportTool(nameOrId: string): Promise<string> {
    return toolRules.exportTool(this.context, nameOrId);
  }

  /** Unregisters a tool. */
  removeTool(nameOrId: string): Tool {
    return toolRules.removeTool(this.context, nameOrId);
  }

  // Resolution

  /** The registry as binding resolution sees it. */
  resolutionRegistry(): ResolutionRegistry {
    return {
      typeGraph: () => typeRules.typeGraph(this.context),
      findResource: (nameOrId) => resources.findResource(this.db, nameOrId),
      projectLinks: (projectId) => projects.projectLinks(this.db, projectId),
    };
  }
}
