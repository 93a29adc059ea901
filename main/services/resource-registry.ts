/**
 * Resources: register, update and unregister folders, with name, type and location checked (a
 * git-checkout must be a work-tree root); registering a folder that is already registered warns.
 */
import { ulid } from 'ulid';
import type { ResourceRemoval } from '../../shared/dto.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import type { Resource, SandboxStrategy } from '../../shared/model.ts';
import { resourcesAt, sameFolderWarning } from '../../shared/same-folder.ts';
import { checkResourceName } from '../core/names.ts';
import * as resources from '../registry/resources.ts';
import { assertGitRoot, inspectLocation } from './location.ts';
import { checkStrategy, describeDependents, type RegistryContext } from './registry-common.ts';
import { showType } from './type-registry.ts';

/** Fields accepted when adding a resource. */
export interface ResourceInput {
  name: string;
  typeName: string;
  location: string;
  sandboxStrategy?: SandboxStrategy | null;
  description?: string;
}

/** A registered resource, and the warning when its folder was already registered as another. */
export interface Registration {
  resource: Resource;
  /** Names of the other resources at the same folder. */
  sameFolder: string[];
  warning: string | null;
}

/** One resource by name or id. */
export function showResource({ db }: RegistryContext, nameOrId: string): Resource {
  const resource = resources.findResource(db, nameOrId);
  if (!resource) throw new NotFoundError(`There is no resource "${nameOrId}": see the list of resources.`, { nameOrId, hints: [{ action: 'list-resources' }] });
  return resource;
}

/** Registers a folder after checking name, type and location; warns when the folder is registered already. */
export async function registerResource(context: RegistryContext, input: ResourceInput): Promise<Registration> {
  const { db } = context;
  const problem = checkResourceName(input.name);
  if (problem) throw new ValidationError(problem, { field: 'name' });
  showType(context, input.typeName);
  const location = await checkLocation(input.typeName, input.location);
  const stamp = context.stamp();
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
  const sameFolder = db
    .transaction(() => {
      if (resources.findResource(db, resource.name)) {
        throw new ConflictError(`A resource named "${resource.name}" already exists: choose another name, or update that one.`, { field: 'name' });
      }
      const others = resourcesAt(resources.listResources(db), location).map((other) => other.name);
      resources.insertResource(db, resource);
      return others;
    })
    .immediate();
  context.emit('resources');
  return { resource, sameFolder, warning: sameFolderWarning(sameFolder) };
}

/** Changes a resource; a new location or type is checked like a new registration. */
export async function updateResource(context: RegistryContext, nameOrId: string, patch: Partial<ResourceInput>): Promise<Resource> {
  const { db } = context;
  const current = showResource(context, nameOrId);
  if (patch.name !== undefined) {
    const problem = checkResourceName(patch.name);
    if (problem) throw new ValidationError(problem, { field: 'name' });
  }
  const typeName = patch.typeName ?? current.typeName;
  if (patch.typeName !== undefined) showType(context, patch.typeName);
  const location =
    patch.location !== undefined || patch.typeName !== undefined ? await checkLocation(typeName, patch.location ?? current.location) : current.location;
  const next: Resource = {
    ...current,
    name: patch.name ?? current.name,
    typeName,
    location,
    sandboxStrategy: patch.sandboxStrategy === undefined ? current.sandboxStrategy : patch.sandboxStrategy && checkStrategy(patch.sandboxStrategy),
    description: patch.description ?? current.description,
    updatedAt: context.stamp(),
  };
  db.transaction(() => {
    const clash = resources.findResource(db, next.name);
    if (clash && clash.id !== next.id) throw new ConflictError(`A resource named "${next.name}" already exists: choose another name.`, { field: 'name' });
    resources.updateResource(db, next);
  }).immediate();
  context.emit('resources');
  return next;
}

/**
 * Unregisters a resource (its files are never touched). Refused while projects link it or
 * tools name it statically, unless forced; the result names what depended on it.
 */
export function removeResource(context: RegistryContext, nameOrId: string, options: { force?: boolean } = {}): ResourceRemoval {
  const { db } = context;
  const resource = showResource(context, nameOrId);
  const dependents = resources.resourceDependents(db, resource);
  const uses = describeDependents({ projects: dependents.projects, 'tools (static slots)': dependents.tools });
  if (uses && !options.force) {
    throw new ConflictError(
      `Resource "${resource.name}" is used by ${uses}. Unlink it first, or remove it anyway (the links go, and those tools will fail to bind).`,
      { ...dependents, hints: [{ action: 'remove-anyway' }] },
    );
  }
  db.transaction(() => resources.deleteResource(db, resource.id)).immediate();
  context.emit('resources');
  return { resource, unlinkedFrom: dependents.projects, staticIn: dependents.tools };
}

async function checkLocation(typeName: string, location: string): Promise<string> {
  const info = await inspectLocation(location);
  if (typeName === 'git-checkout') assertGitRoot(info);
  return info.path;
}
