/** Queries over projects and their links. */
import type { Database } from 'better-sqlite3';
import type { Project, ProjectLink, Resource } from '../../shared/model.ts';
import { toResource } from './resources.ts';

interface ProjectRow {
  id: string;
  name: string;
  description: string;
  agent_may_commit: number;
  created_at: string;
  updated_at: string;
}

function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    agentMayCommit: row.agent_may_commit === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** All projects by name. */
export function listProjects(db: Database): Project[] {
  return (db.prepare('SELECT * FROM projects ORDER BY name').all() as ProjectRow[]).map(toProject);
}

/** One project by exact id or name. */
export function findProject(db: Database, nameOrId: string): Project | undefined {
  const row = db.prepare('SELECT * FROM projects WHERE id = ? OR name = ?').get(nameOrId, nameOrId) as ProjectRow | undefined;
  return row && toProject(row);
}

/** Inserts a project (agents may not commit unless it says so). */
export function insertProject(db: Database, project: Omit<Project, 'agentMayCommit'> & { agentMayCommit?: boolean }): void {
  db.prepare(
    `INSERT INTO projects (id, name, description, agent_may_commit, created_at, updated_at)
     VALUES (@id, @name, @description, @agentMayCommit, @createdAt, @updatedAt)`,
  ).run({ ...project, agentMayCommit: project.agentMayCommit ? 1 : 0 });
}

/** Replaces the mutable fields of a project. */
export function updateProject(db: Database, project: Project): void {
  db.prepare(
    'UPDATE projects SET name = @name, description = @description, agent_may_commit = @agentMayCommit, updated_at = @updatedAt WHERE id = @id',
  ).run({ ...project, agentMayCommit: project.agentMayCommit ? 1 : 0 });
}

/** Deletes a project; its links go with it. */
export function deleteProject(db: Database, id: string): void {
  db.prepare('DELETE FROM projects WHERE id = ?').run(id);
}

/** The project's links with their resources, by resource name (one indexed query). */
export function projectLinks(db: Database, projectId: string): Array<ProjectLink & { resource: Resource }> {
  const rows = db
    .prepare(
      `SELECT l.project_id, l.resource_id, l.alias, l.created_at AS linked_at, r.*
       FROM project_links l JOIN resources r ON r.id = l.resource_id
       WHERE l.project_id = ? ORDER BY r.name`,
    )
    .all(projectId) as Array<Parameters<typeof toResource>[0] & { project_id: string; resource_id: string; alias: string | null; linked_at: string }>;
  return rows.map((row) => ({
    projectId: row.project_id,
    resourceId: row.resource_id,
    alias: row.alias,
    createdAt: row.linked_at,
    resource: toResource(row),
  }));
}

/** The link between a project and a resource, if any. */
export function getLink(db: Database, projectId: string, resourceId: string): ProjectLink | undefined {
  const row = db.prepare('SELECT * FROM project_links WHERE project_id = ? AND resource_id = ?').get(projectId, resourceId) as
    | { project_id: string; resource_id: string; alias: string | null; created_at: string }
    | undefined;
  return row && { projectId: row.project_id, resourceId: row.resource_id, alias: row.alias, createdAt: row.created_at };
}

/** The resource holding an alias in a project, if any. */
export function resourceWithAlias(db: Database, projectId: string, alias: string): string | undefined {
  return db.prepare('SELECT resource_id FROM project_links WHERE project_id = ? AND alias = ?').pluck().get(projectId, alias) as
    | string
    | undefined;
}

/** Links a resource, or updates the alias of an existing link. */
export function saveLink(db: Database, link: ProjectLink): void {
  db.prepare(
    `INSERT INTO project_links (project_id, resource_id, alias, created_at) VALUES (@projectId, @resourceId, @alias, @createdAt)
     ON CONFLICT (project_id, resource_id) DO UPDATE SET alias = excluded.alias`,
  ).run(link);
}

/** Removes a link. */
export function deleteLink(db: Database, projectId: string, resourceId: string): void {
  db.prepare('DELETE FROM project_links WHERE project_id = ? AND resource_id = ?').run(projectId, resourceId);
}
