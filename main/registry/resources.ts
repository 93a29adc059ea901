/** Queries over resources. */
import type { Database } from 'better-sqlite3';
import type { Resource, SandboxStrategy } from '../../shared/model.ts';

interface ResourceRow {
  id: string;
  name: string;
  type_name: string;
  location: string;
  sandbox_strategy: SandboxStrategy | null;
  description: string;
  created_at: string;
  updated_at: string;
}

/** Maps a `resources` row (possibly prefixed by a join) to a Resource. */
export function toResource(row: ResourceRow): Resource {
  return {
    id: row.id,
    name: row.name,
    typeName: row.type_name,
    location: row.location,
    sandboxStrategy: row.sandbox_strategy,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** All resources by name. */
export function listResources(db: Database): Resource[] {
  return (db.prepare('SELECT * FROM resources ORDER BY name').all() as ResourceRow[]).map(toResource);
}

/** One resource by exact id or name (both indexed). */
export function findResource(db: Database, nameOrId: string): Resource | undefined {
  const row = db.prepare('SELECT * FROM resources WHERE id = ? OR name = ?').get(nameOrId, nameOrId) as ResourceRow | undefined;
  return row && toResource(row);
}

/** Inserts a resource. */
export function insertResource(db: Database, resource: Resource): void {
  db.prepare(
    `INSERT INTO resources (id, name, type_name, location, sandbox_strategy, description, created_at, updated_at)
     VALUES (@id, @name, @typeName, @location, @sandboxStrategy, @description, @createdAt, @updatedAt)`,
  ).run(resource);
}

/** Replaces the mutable fields of a resource. */
export function updateResource(db: Database, resource: Resource): void {
  db.prepare(
    `UPDATE resources SET name = @name, type_name = @typeName, location = @location, sandbox_strategy = @sandboxStrategy,
       description = @description, updated_at = @updatedAt WHERE id = @id`,
  ).run(resource);
}

/** Deletes a resource and its project links. */
export function deleteResource(db: Database, id: string): void {
  db.prepare('DELETE FROM project_links WHERE resource_id = ?').run(id);
  db.prepare('DELETE FROM resources WHERE id = ?').run(id);
}

/** Which projects link a resource and which tools name it statically. */
export function resourceDependents(db: Database, resource: Pick<Resource, 'id' | 'name'>): { projects: string[]; tools: string[] } {
  const projects = db
    .prepare('SELECT p.name FROM project_links l JOIN projects p ON p.id = l.project_id WHERE l.resource_id = ? ORDER BY p.name')
    .pluck()
    .all(resource.id) as string[];
  const tools = db
    .prepare(
      `SELECT DISTINCT t.name FROM tool_slots s JOIN tools t ON t.id = s.tool_id
       WHERE s.static_resource IN (?, ?) ORDER BY t.name`,
    )
    .pluck()
    .all(resource.id, resource.name) as string[];
  return { projects, tools };
}

/** Project names per resource id, for the resources table. */
export function projectNamesByResource(db: Database): Map<string, string[]> {
  const rows = db
    .prepare('SELECT l.resource_id AS id, p.name AS name FROM project_links l JOIN projects p ON p.id = l.project_id ORDER BY p.name')
    .all() as Array<{ id: string; name: string }>;
  const map = new Map<string, string[]>();
  for (const row of rows) map.set(row.id, [...(map.get(row.id) ?? []), row.name]);
  return map;
}
