/** Queries over resource types. */
import type { Database } from 'better-sqlite3';
import type { ResourceTypeSpec, SandboxStrategy } from '../../shared/model.ts';

interface TypeRow {
  name: string;
  description: string;
  parent_types: string;
  handler: string | null;
  sandbox_strategy: SandboxStrategy;
  built_in: number;
  created_at: string;
  updated_at: string;
}

function toType(row: TypeRow): ResourceTypeSpec {
  return {
    name: row.name,
    description: row.description,
    parentTypes: JSON.parse(row.parent_types) as string[],
    handler: row.handler,
    sandboxStrategy: row.sandbox_strategy,
    builtIn: row.built_in === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** All types, built-ins first, then by name. */
export function listTypes(db: Database): ResourceTypeSpec[] {
  const rows = db.prepare('SELECT * FROM resource_types ORDER BY built_in DESC, name').all() as TypeRow[];
  return rows.map(toType);
}

/** One type by name. */
export function getType(db: Database, name: string): ResourceTypeSpec | undefined {
  const row = db.prepare('SELECT * FROM resource_types WHERE name = ?').get(name) as TypeRow | undefined;
  return row && toType(row);
}

/** Inserts or replaces a type row. */
export function saveType(db: Database, type: ResourceTypeSpec): void {
  db.prepare(
    `INSERT INTO resource_types (name, description, parent_types, handler, sandbox_strategy, built_in, created_at, updated_at)
     VALUES (@name, @description, @parentTypes, @handler, @sandboxStrategy, @builtIn, @createdAt, @updatedAt)
     ON CONFLICT (name) DO UPDATE SET description = excluded.description, parent_types = excluded.parent_types,
       handler = excluded.handler, sandbox_strategy = excluded.sandbox_strategy, updated_at = excluded.updated_at`,
  ).run({ ...type, parentTypes: JSON.stringify(type.parentTypes), builtIn: type.builtIn ? 1 : 0 });
}

/** Deletes a type row. */
export function deleteType(db: Database, name: string): void {
  db.prepare('DELETE FROM resource_types WHERE name = ?').run(name);
}

/** What still refers to a type: resources of it, sub-types, tool slots needing it. */
export function typeDependents(db: Database, name: string): { resources: string[]; subTypes: string[]; tools: string[] } {
  const resources = db.prepare('SELECT name FROM resources WHERE type_name = ? ORDER BY name').pluck().all(name) as string[];
  const subTypes = (
    db.prepare('SELECT name FROM resource_types, json_each(parent_types) WHERE json_each.value = ? ORDER BY name').pluck().all(name) as string[]
  );
  const tools = db
    .prepare('SELECT DISTINCT t.name FROM tool_slots s JOIN tools t ON t.id = s.tool_id WHERE s.resource_type = ? ORDER BY t.name')
    .pluck()
    .all(name) as string[];
  return { resources, subTypes, tools };
}
