/** Queries over tools and their slots. */
import type { Database } from 'better-sqlite3';
import type { AccessMode, BindingMode, ResourceSlot, Tool } from '../../shared/model.ts';

interface ToolRow {
  id: string;
  name: string;
  description: string;
  run: string | null;
  created_at: string;
  updated_at: string;
}

interface SlotRow {
  tool_id: string;
  name: string;
  resource_type: string;
  access: AccessMode;
  binding: BindingMode;
  static_resource: string | null;
  required: number;
}

function toSlot(row: SlotRow): ResourceSlot {
  return {
    name: row.name,
    resourceType: row.resource_type,
    access: row.access,
    binding: row.binding,
    staticResource: row.static_resource,
    required: row.required === 1,
  };
}

function toTool(row: ToolRow, slots: ResourceSlot[]): Tool {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    resourceSlots: slots,
    run: row.run,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** All tools by name, with their slots. */
export function listTools(db: Database): Tool[] {
  const tools = db.prepare('SELECT * FROM tools ORDER BY name').all() as ToolRow[];
  const slots = db.prepare('SELECT * FROM tool_slots ORDER BY tool_id, position').all() as SlotRow[];
  const byTool = new Map<string, ResourceSlot[]>();
  for (const slot of slots) byTool.set(slot.tool_id, [...(byTool.get(slot.tool_id) ?? []), toSlot(slot)]);
  return tools.map((row) => toTool(row, byTool.get(row.id) ?? []));
}

/** One tool by exact id or name. */
export function findTool(db: Database, nameOrId: string): Tool | undefined {
  const row = db.prepare('SELECT * FROM tools WHERE id = ? OR name = ?').get(nameOrId, nameOrId) as ToolRow | undefined;
  if (!row) return undefined;
  const slots = db.prepare('SELECT * FROM tool_slots WHERE tool_id = ? ORDER BY position').all(row.id) as SlotRow[];
  return toTool(row, slots.map(toSlot));
}

/** Inserts a tool or replaces one with the same id, slots included. */
export function saveTool(db: Database, tool: Tool): void {
  db.prepare(
    `INSERT INTO tools (id, name, description, run, created_at, updated_at) VALUES (@id, @name, @description, @run, @createdAt, @updatedAt)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, run = excluded.run,
       updated_at = excluded.updated_at`,
  ).run(tool);
  db.prepare('DELETE FROM tool_slots WHERE tool_id = ?').run(tool.id);
  const insert = db.prepare(
    `INSERT INTO tool_slots (tool_id, position, name, resource_type, access, binding, static_resource, required)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  tool.resourceSlots.forEach((slot, position) =>
    insert.run(tool.id, position, slot.name, slot.resourceType, slot.access, slot.binding, slot.staticResource, slot.required ? 1 : 0),
  );
}

/** Deletes a tool and its slots. */
export function deleteTool(db: Database, id: string): void {
  db.prepare('DELETE FROM tools WHERE id = ?').run(id);
}
