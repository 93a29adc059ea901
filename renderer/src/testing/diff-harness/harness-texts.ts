/** The texts behind the harness samples: a small module edited, a 10,000-line module, and JSON rows. */

/** The old side of the small code change: a tool loader. */
export const SMALL_OLD = `import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Options for loading a tool file. */
export interface LoadOptions {
  cwd: string;
  strict: boolean;
}

/**
 * Reads a tool definition and returns its slots.
 * Multi-line comments keep their colour on every line.
 */
export async function loadTool(file: string, options: LoadOptions) {
  const full = path.join(options.cwd, file);
  const text = await readFile(full, 'utf8');
  const data = JSON.parse(text);
  if (!data.name) throw new Error('tool has no name');
  return { name: data.name, slots: data.resource_slots ?? [] };
}

export function slotNames(tool: { slots: Array<{ name: string }> }): string[] {
  return tool.slots.map((slot) => slot.name);
}

export function describe(tool: { name: string }) {
\treturn \`tool \${tool.name}\`;
}

const LIMIT = 100;
const RETRIES = 3;

export function clamp(value: number): number {
  if (value < 0) return 0;
  if (value > LIMIT) return LIMIT;
  return value;
}

export function retry<T>(run: () => T): T {
  let last: unknown;
  for (let i = 0; i < RETRIES; i++) {
    try {
      return run();
    } catch (error) {
      last = error;
    }
  }
  throw last;
}
`;

/** The new side: YAML support, a typed error, a tab turned into spaces, a simpler clamp. */
export const SMALL_NEW = `import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';

/** Options for loading a tool file. */
export interface LoadOptions {
  cwd: string;
  strict: boolean;
  /** Accept YAML as well as JSON. */
  yaml?: boolean;
}

/**
 * Reads a tool definition and returns its slots.
 * Multi-line comments keep their colour on every line.
 */
export async function loadTool(file: string, options: LoadOptions) {
  const full = path.resolve(options.cwd, file);
  const text = await readFile(full, 'utf8');
  const data = options.yaml ? parse(text) : JSON.parse(text);
  if (!data.name) throw new ValidationError(\`\${file}: the tool has no name; add a "name" field\`);
  return { name: data.name, slots: data.resource_slots ?? [], run: data.run ?? null };
}

export function slotNames(tool: { slots: Array<{ name: string }> }): string[] {
  return tool.slots.map((slot) => slot.name);
}

export function describe(tool: { name: string }) {
    return \`tool \${tool.name}\`;
}

const LIMIT = 100;
const RETRIES = 5;

export function clamp(value: number): number {
  return Math.min(LIMIT, Math.max(0, value));
}

export function retry<T>(run: () => T): T {
  let last: unknown;
  for (let i = 0; i < RETRIES; i++) {
    try {
      return run();
    } catch (error) {
      last = error;
    }
  }
  throw last;
}
`;

/** A generated TypeScript module of `lines` lines (functions with doc comments). */
export function generatedModule(lines: number, variant: 'old' | 'new'): string {
  const out: string[] = [
    '// Generated for the diff viewer harness: one long module.',
    "import { strict as assert } from 'node:assert';",
    '',
  ];
  let n = 0;
  while (out.length < lines) {
    const changed = variant === 'new' && n % 40 === 7;
    out.push(`/** Computes entry ${n} of the table (${changed ? 'cached' : 'plain'}). */`);
    out.push(`export function entry${n}(input: number, scale = ${changed ? n + 1 : n}): number {`);
    out.push(`  const base = input * scale + ${n % 17};`);
    if (variant === 'new' && n % 40 === 23)
      out.push(`  assert(base >= 0, 'entry ${n} needs a non-negative input');`);
    if (!(variant === 'new' && n % 55 === 31)) out.push(`  return base > ${n} ? base - ${n} : base;`);
    else out.push('  return Math.abs(base);');
    out.push('}');
    out.push('');
    n++;
  }
  return `${out.slice(0, lines).join('\n')}\n`;
}

/** The texts behind the gated sample, built when "Show anyway" asks for them. */
export function gatedTexts(): { oldText: string; newText: string } {
  const row = (i: number, v: string) => `  { "id": ${i}, "name": "fixture-${i}", "value": "${v}" },`;
  const oldRows = Array.from({ length: 30_000 }, (_, i) => row(i, i % 3 === 0 ? 'a' : 'b'));
  const newRows = Array.from({ length: 30_000 }, (_, i) => row(i, i % 2 === 0 ? 'a' : 'b'));
  return { oldText: `[\n${oldRows.join('\n')}\n]\n`, newText: `[\n${newRows.join('\n')}\n]\n` };
}
