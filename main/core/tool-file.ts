/**
 * Tool definition files: YAML or JSON with the reference's keys, one tool per file or a list
 * under `tools:`. Parsing is pure; every problem names the file, line, field and the fix.
 */
import { isMap, LineCounter, parseDocument, stringify, type Document } from 'yaml';
import { z } from 'zod';
import type { ToolFileIssue } from '../../shared/dto.ts';
import { ValidationError } from '../../shared/errors.ts';
import { ACCESS_MODES, BINDING_MODES, type ToolDefinition } from '../../shared/model.ts';
import { checkIdentifier, checkPlainName } from './names.ts';

/** A tool read from a file, with a way to point at its fields for later checks. */
export interface ParsedTool {
  definition: ToolDefinition;
  /** Where a field of this tool sits, e.g. `['resource_slots', 1, 'static_resource']`. */
  locate(path: ReadonlyArray<string | number>): { line: number | null; column: number | null; field: string };
}

const slotSchema = z.strictObject({
  name: z.string({ error: 'is required: the slot name, e.g. "repo"' }),
  resource_type: z.string({ error: 'is required: the type of resource the slot needs, e.g. "git-checkout"' }),
  access: z.enum(ACCESS_MODES, { error: `must be one of ${ACCESS_MODES.join(', ')}` }).default('read_only'),
  binding: z.enum(BINDING_MODES, { error: `must be one of ${BINDING_MODES.join(', ')}` }).default('contextual'),
  static_resource: z.string({ error: 'must be a resource name such as "local/shared-config"' }).nullish(),
  required: z.boolean({ error: 'must be true or false' }).default(true),
});

const toolSchema = z.strictObject({
  name: z.string({ error: 'must be the tool name' }).optional(),
  description: z.string({ error: 'must be text' }).default(''),
  resource_slots: z.array(slotSchema, { error: 'must be a list of slots' }).default([]),
  run: z.string({ error: 'must be a command line' }).nullish(),
});

const listSchema = z.strictObject({ tools: z.array(z.unknown()) });

/**
 * Reads tool definitions from text. `file` names the source in messages; its base name is the
 * tool's name when a single-tool file has no `name` (so the reference's fragments import as-is).
 * Throws one ValidationError listing every problem.
 */
export function parseToolFile(text: string, file: string): ParsedTool[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const issues: ToolFileIssue[] = [];
  const at = (path: ReadonlyArray<string | number>, message: string): void => {
    issues.push({ file, ...locateIn(doc, lineCounter, path), message });
  };

  for (const error of doc.errors) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    issues.push({ file, line, column: col, field: '', message: firstLine(error.message) });
  }
  if (issues.length > 0) throw toolFileError(file, issues, 'is not valid YAML or JSON');

  const root: unknown = doc.toJS();
  const isList = isMap(doc.contents) && doc.contents.has('tools');
  const listed = listSchema.safeParse(root);
  if (isList && !listed.success) {
    at(['tools'], 'A file with "tools:" must hold only that key, a list of tools.');
    throw toolFileError(file, issues);
  }
  const entries: Array<{ value: unknown; base: Array<string | number> }> = listed.success
    ? listed.data.tools.map((value, index) => ({ value, base: ['tools', index] }))
    : [{ value: root, base: [] }];
  if (root === null || root === undefined) at([], 'The file is empty: write a tool with name and resource_slots.');

  const tools: ParsedTool[] = [];
  for (const { value, base } of entries) {
    const parsed = toolSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = [...base, ...(issue.path as Array<string | number>)];
        if (issue.code === 'unrecognized_keys') for (const key of issue.keys) at([...path, key], unknownField(key));
        else at(path, describeIssue(issue));
      }
      continue;
    }
    const name = parsed.data.name ?? (isList ? undefined : defaultToolName(file));
    if (name === undefined) {
      at(base, 'A tool needs a name: add "name: <tool-name>".');
      continue;
    }
    const nameProblem = checkPlainName('tool', name);
    if (nameProblem) at([...base, 'name'], nameProblem);
    const definition: ToolDefinition = {
      name,
      description: parsed.data.description,
      run: parsed.data.run ?? null,
      resourceSlots: parsed.data.resource_slots.map((slot) => ({
        name: slot.name,
        resourceType: slot.resource_type,
        access: slot.access,
        binding: slot.binding,
        staticResource: slot.static_resource ?? null,
        required: slot.required,
      })),
    };
    checkSlots(definition, (path, message) => at([...base, ...path], message));
    tools.push({ definition, locate: (path) => locateIn(doc, lineCounter, [...base, ...path]) });
  }

  const seen = new Set<string>();
  tools.forEach((tool, index) => {
    if (seen.has(tool.definition.name)) at(['tools', index, 'name'], `Tool "${tool.definition.name}" appears twice in this file.`);
    seen.add(tool.definition.name);
  });
  if (issues.length > 0) throw toolFileError(file, issues);
  return tools;
}

function checkSlots(tool: ToolDefinition, at: (path: Array<string | number>, message: string) => void): void {
  const seen = new Set<string>();
  tool.resourceSlots.forEach((slot, index) => {
    const path = ['resource_slots', index];
    const nameProblem = checkIdentifier('slot name', slot.name);
    if (nameProblem) at([...path, 'name'], nameProblem);
    if (seen.has(slot.name)) at([...path, 'name'], `Slot name "${slot.name}" is used twice in tool "${tool.name}": slot names must be unique.`);
    seen.add(slot.name);
    if (slot.binding === 'static' && !slot.staticResource) {
      at([...path, 'static_resource'], 'A static slot needs static_resource: the name of a registered resource, e.g. "local/shared-config".');
    }
    if (slot.binding !== 'static' && slot.staticResource) {
      at([...path, 'static_resource'], `static_resource is only for "binding: static"; remove it or set binding to static.`);
    }
  });
}

/** Writes definitions back in the file format (reference keys), one tool or a `tools:` list. */
export function formatToolFile(tools: ToolDefinition[]): string {
  const plain = tools.map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    resource_slots: tool.resourceSlots.map((slot) => ({
      name: slot.name,
      resource_type: slot.resourceType,
      access: slot.access,
      binding: slot.binding,
      ...(slot.staticResource ? { static_resource: slot.staticResource } : {}),
      ...(slot.required ? {} : { required: false }),
    })),
    ...(tool.run ? { run: tool.run } : {}),
  }));
  return stringify(plain.length === 1 ? plain[0] : { tools: plain }, { lineWidth: 0 });
}

function defaultToolName(file: string): string | undefined {
  if (file === '-' || file === '<stdin>') return undefined;
  const base = file.split(/[\\/]/).pop() ?? '';
  return base.replace(/\.(ya?ml|json)$/i, '') || undefined;
}

function locateIn(
  doc: Document,
  lineCounter: LineCounter,
  path: ReadonlyArray<string | number>,
): { line: number | null; column: number | null; field: string } {
  const field = path.map(String).join('.');
  // Walk down as far as the document goes: a missing key points at its parent mapping.
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (range) {
      const key = depth === path.length ? keyOffset(doc, path) : undefined;
      const { line, col } = lineCounter.linePos(key ?? range[0]);
      return { line, column: col, field };
    }
  }
  return { line: null, column: null, field };
}

/** The offset of the key of a mapping entry, so errors point at `field:` rather than its value. */
function keyOffset(doc: Document, path: ReadonlyArray<string | number>): number | undefined {
  const parentPath = path.slice(0, -1);
  const parent = parentPath.length === 0 ? doc.contents : doc.getIn(parentPath, true);
  const last = path[path.length - 1];
  if (!isMap(parent) || typeof last !== 'string') return undefined;
  const pair = parent.items.find((item) => (item.key as { value?: unknown } | null)?.value === last);
  return (pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0];
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? String(issue.path[issue.path.length - 1]) : 'tool';
  return `${field} ${issue.message}`;
}

function unknownField(key: string): string {
  return `Unknown field "${key}": a tool has name, description, resource_slots and run; a slot has name, resource_type, access, binding, static_resource and required.`;
}

function toolFileError(file: string, issues: ToolFileIssue[], what = 'has problems'): ValidationError {
  const lines = issues.map((i) => `  ${file}${i.line !== null ? `:${i.line}` : ''}${i.field ? ` ${i.field}` : ''}: ${i.message}`);
  return new ValidationError(`Tool file ${file} ${what}:\n${lines.join('\n')}`, { file, issues });
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
