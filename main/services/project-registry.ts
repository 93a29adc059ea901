/** Projects and their links to resources (an alias is unique within a project). */
import { ulid } from 'ulid';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import type { Project, ProjectDetail } from '../../shared/model.ts';
import { checkIdentifier, checkPlainName } from '../core/names.ts';
import * as projects from '../registry/projects.ts';
import * as resources from '../registry/resources.ts';
import type { RegistryContext } from './registry-common.ts';
import { showResource } from './resource-registry.ts';

/** One project by name or id. */
export function findProject({ db }: RegistryContext, nameOrId: string): Project {
  const project = projects.findProject(db, nameOrId);
  if (!project) throw new NotFoundError(`There is no project "${nameOrId}": see the list of projects.`, { nameOrId, hints: [{ action: 'list-projects' }] });
  return project;
}

/** One project with its links. */
export function showProject(context: RegistryContext, nameOrId: string): ProjectDetail {
  const project = findProject(context, nameOrId);
  return { ...project, links: projects.projectLinks(context.db, project.id) };
}

/** Creates a project. */
export function addProject(context: RegistryContext, input: { name: string; description?: string }): Project {
  const { db } = context;
  const problem = checkPlainName('project', input.name);
  if (problem) throw new ValidationError(problem, { field: 'name' });
  const stamp = context.stamp();
  const project: Project = { id: ulid(), name: input.name, description: input.description ?? '', agentMayCommit: false, createdAt: stamp, updatedAt: stamp };
  db.transaction(() => {
    if (projects.findProject(db, input.name)) throw new ConflictError(`A project named "${input.name}" already exists: choose another name.`, { field: 'name' });
    projects.insertProject(db, project);
  }).immediate();
  context.emit('projects');
  return project;
}

/** Renames or describes a project, or lets agents commit, undo and discard its plans (or not). */
export function updateProject(context: RegistryContext, nameOrId: string, patch: { name?: string; description?: string; agentMayCommit?: boolean }): Project {
  const { db } = context;
  const current = findProject(context, nameOrId);
  if (patch.name !== undefined) {
    const problem = checkPlainName('project', patch.name);
    if (problem) throw new ValidationError(problem, { field: 'name' });
  }
  const next = {
    ...current,
    name: patch.name ?? current.name,
    description: patch.description ?? current.description,
    agentMayCommit: patch.agentMayCommit ?? current.agentMayCommit,
    updatedAt: context.stamp(),
  };
  db.transaction(() => {
    const clash = projects.findProject(db, next.name);
    if (clash && clash.id !== next.id) throw new ConflictError(`A project named "${next.name}" already exists: choose another name.`, { field: 'name' });
    projects.updateProject(db, next);
  }).immediate();
  context.emit('projects');
  return next;
}

/** Deletes a project and its links (the resources stay registered). */
export function removeProject(context: RegistryContext, nameOrId: string): ProjectDetail {
  const project = showProject(context, nameOrId);
  context.db.transaction(() => projects.deleteProject(context.db, project.id)).immediate();
  context.emit('projects');
  return project;
}

/** Links a resource to a project, or changes the alias of an existing link. */
export function link(context: RegistryContext, projectRef: string, resourceRef: string, alias: string | null = null): ProjectDetail {
  const { db } = context;
  const project = findProject(context, projectRef);
  const resource = showResource(context, resourceRef);
  if (alias !== null) {
    const problem = checkIdentifier('alias', alias);
    if (problem) throw new ValidationError(problem, { field: 'alias' });
  }
  db.transaction(() => {
    const holder = alias === null ? undefined : projects.resourceWithAlias(db, project.id, alias);
    if (holder && holder !== resource.id) {
      const other = resources.findResource(db, holder);
      throw new ConflictError(
        `Alias "${alias}" is already used in project "${project.name}" by ${other?.name ?? holder}: aliases are unique within a project. Clear it there first.`,
        { field: 'alias', alias, resource: other?.name },
      );
    }
    const existing = projects.getLink(db, project.id, resource.id);
    projects.saveLink(db, { projectId: project.id, resourceId: resource.id, alias, createdAt: existing?.createdAt ?? context.stamp() });
  }).immediate();
  context.emit('projects');
  return showProject(context, project.id);
}

/** Removes a link. */
export function unlink(context: RegistryContext, projectRef: string, resourceRef: string): ProjectDetail {
  const project = findProject(context, projectRef);
  const resource = showResource(context, resourceRef);
  if (!projects.getLink(context.db, project.id, resource.id)) {
    throw new NotFoundError(`Resource "${resource.name}" is not linked to project "${project.name}".`);
  }
  projects.deleteLink(context.db, project.id, resource.id);
  context.emit('projects');
  return showProject(context, project.id);
}
