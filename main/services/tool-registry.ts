/**
 * Tools: import a definition file (all of it checked against the registry before any is
 * written), check one without writing, export one back, unregister one.
 */
import { ulid } from 'ulid';
import { NotFoundError, ValidationError } from '../../shared/errors.ts';
import type { ErrorHint } from '../../shared/error-hints.ts';
import type { Tool, ToolDefinition } from '../../shared/model.ts';
import type { ParsedTool } from '../core/tool-file.ts';
import * as resources from '../registry/resources.ts';
import * as tools from '../registry/tools.ts';
import type { RegistryContext } from './registry-common.ts';
import { typeGraph } from './type-registry.ts';

/** One tool by name or id. */
export function showTool({ db }: RegistryContext, nameOrId: string): Tool {
  const tool = tools.findTool(db, nameOrId);
  if (!tool) throw new NotFoundError(`There is no tool "${nameOrId}": import it from a tool file first.`, { nameOrId, hints: [{ action: 'import-tool' }] });
  return tool;
}

/**
 * Registers every tool in a definition file. All are checked (types known, static resources
 * registered and compatible) before any is written; an existing tool is replaced only when
 * `replace` is set.
 */
export async function importTools(context: RegistryContext, text: string, file: string, options: { replace?: boolean } = {}): Promise<Tool[]> {
  const { db } = context;
  const { parseToolFile } = await toolFiles();
  const saved: Tool[] = [];
  db.transaction(() => {
    // Checked inside the transaction, so another process's import cannot slip in between.
    const parsed = parseToolFile(text, file);
    checkAgainstRegistry(context, parsed, file, options.replace ?? false);
    for (const { definition } of parsed) {
      const existing = tools.findTool(db, definition.name);
      const stamp = context.stamp();
      const tool: Tool = { id: existing?.id ?? ulid(), ...definition, createdAt: existing?.createdAt ?? stamp, updatedAt: stamp };
      tools.saveTool(db, tool);
      saved.push(tool);
    }
  }).immediate();
  context.emit('tools');
  return saved;
}

/**
 * Checks a tool file exactly as import does (file rules, then registry rules) without writing,
 * throwing the same ValidationError; returns the definitions it would register.
 */
export async function checkTools(context: RegistryContext, text: string, file: string, options: { replace?: boolean } = {}): Promise<ToolDefinition[]> {
  const { parseToolFile } = await toolFiles();
  const parsed = parseToolFile(text, file);
  checkAgainstRegistry(context, parsed, file, options.replace ?? false);
  return parsed.map((tool) => tool.definition);
}

/** The tool written back in the file format. */
export async function exportTool(context: RegistryContext, nameOrId: string): Promise<string> {
  const { name, description, resourceSlots, run } = showTool(context, nameOrId);
  const { formatToolFile } = await toolFiles();
  return formatToolFile([{ name, description, resourceSlots, run }]);
}

/**
 * The tool-file format (YAML and its zod schema), loaded on first use: the two libraries are a
 * tenth of a CLI start, and only tool import, check and export read or write the format.
 */
function toolFiles(): Promise<typeof import('../core/tool-file.ts')> {
  return import('../core/tool-file.ts');
}

/** Unregisters a tool. */
export function removeTool(context: RegistryContext, nameOrId: string): Tool {
  const tool = showTool(context, nameOrId);
  tools.deleteTool(context.db, tool.id);
  context.emit('tools');
  return tool;
}

function checkAgainstRegistry(context: RegistryContext, parsed: ParsedTool[], file: string, replace: boolean): void {
  const { db } = context;
  const graph = typeGraph(context);
  const knownTypes = graph.names();
  const problems: Array<{ line: number | null; field: string; message: string }> = [];
  const hints: ErrorHint[] = [];
  for (const tool of parsed) {
    const { definition } = tool;
    if (!replace && tools.findTool(db, definition.name)) {
      problems.push({ ...tool.locate(['name']), message: `Tool "${definition.name}" is already registered: import it with Replace to update it.` });
      hints.push({ action: 'replace-tools' });
    }
    definition.resourceSlots.forEach((slot, index) => {
      if (!graph.has(slot.resourceType)) {
        problems.push({
          ...tool.locate(['resource_slots', index, 'resource_type']),
          message: `Unknown resource type "${slot.resourceType}": add it as a resource type first, or use one of ${knownTypes.join(', ')}.`,
        });
        hints.push({ action: 'add-type', type: slot.resourceType });
      }
      if (slot.binding !== 'static' || !slot.staticResource) return;
      const resource = resources.findResource(db, slot.staticResource);
      const where = tool.locate(['resource_slots', index, 'static_resource']);
      if (!resource) {
        problems.push({
          ...where,
          message: `Static resource "${slot.staticResource}" is not registered: register it first, as a resource of type ${slot.resourceType}.`,
        });
        hints.push({ action: 'add-resource', name: slot.staticResource, type: slot.resourceType });
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
    hints,
  });
}
