/**
 * Sample files for the diff viewer harness (diff-harness.html): a small code change, a
 * 10,000-line file, renames, binary and image files, the large-file gate and the empty states.
 * Generated, not read from disk, so the harness runs on any machine.
 */
import type { DiffFile } from './file-diff.ts';

/** A named sample of the harness. */
export interface Sample {
  id: string;
  label: string;
  file: DiffFile;
}

const SMALL_OLD = `import { readFile } from 'node:fs/promises';
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

const SMALL_NEW = `import { readFile } from 'node:fs/promises';
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
function generatedModule(lines: number, variant: 'old' | 'new'): string {
  const out: string[] = ['// Generated for the diff viewer harness: one long module.', "import { strict as assert } from 'node:assert';", ''];
  let n = 0;
  while (out.length < lines) {
    const changed = variant === 'new' && n % 40 === 7;
    out.push(`/** Computes entry ${n} of the table (${changed ? 'cached' : 'plain'}). */`);
    out.push(`export function entry${n}(input: number, scale = ${changed ? n + 1 : n}): number {`);
    out.push(`  const base = input * scale + ${n % 17};`);
    if (variant === 'new' && n % 40 === 23) out.push(`  assert(base >= 0, 'entry ${n} needs a non-negative input');`);
    if (!(variant === 'new' && n % 55 === 31)) out.push(`  return base > ${n} ? base - ${n} : base;`);
    else out.push('  return Math.abs(base);');
    out.push('}');
    out.push('');
    n++;
  }
  return `${out.slice(0, lines).join('\n')}\n`;
}

/** The harness samples; `images` are data URLs made by the page (a canvas), `big` builds the gated text on demand. */
export function createSamples(images: { before: string; after: string; beforeSize: number; afterSize: number }): Sample[] {
  const bigOld = generatedModule(10_000, 'old');
  const bigNew = generatedModule(10_000, 'new');
  const crlfOld = 'first line\r\nsecond line\r\nthird line\r\nlast line without newline';
  const crlfNew = 'first line\r\nsecond line\nthird line, edited\r\nlast line without newline\r\n';
  return [
    {
      id: 'code',
      label: 'Small code change',
      file: { oldPath: 'src/tools/load-tool.ts', newPath: 'src/tools/load-tool.ts', status: 'modified', binary: false, oldSize: SMALL_OLD.length, newSize: SMALL_NEW.length, oldText: SMALL_OLD, newText: SMALL_NEW },
    },
    {
      id: 'big',
      label: '10,000-line file',
      file: { oldPath: 'src/generated/table.ts', newPath: 'src/generated/table.ts', status: 'modified', binary: false, oldSize: bigOld.length, newSize: bigNew.length, oldText: bigOld, newText: bigNew },
    },
    {
      id: 'rename',
      label: 'Rename with edits',
      file: {
        oldPath: 'src/utils/format-date.ts',
        newPath: 'src/lib/dates/format.ts',
        status: 'renamed',
        binary: false,
        oldSize: 120,
        newSize: 131,
        oldText: "export function formatDate(d: Date): string {\n  return d.toISOString().slice(0, 10);\n}\n",
        newText: "/** YYYY-MM-DD in UTC. */\nexport function formatDate(date: Date): string {\n  return date.toISOString().slice(0, 10);\n}\n",
      },
    },
    {
      id: 'rename-only',
      label: 'Rename only',
      file: { oldPath: 'docs/setup.md', newPath: 'docs/getting-started.md', status: 'renamed', binary: false, oldSize: 12, newSize: 12, oldText: '# Setup\n', newText: '# Setup\n' },
    },
    {
      id: 'binary',
      label: 'Binary file',
      file: { oldPath: 'assets/engine.wasm', newPath: 'assets/engine.wasm', status: 'modified', binary: true, oldSize: 1_482_113, newSize: 1_530_972 },
    },
    {
      id: 'image',
      label: 'Image',
      file: {
        oldPath: 'assets/icon.png',
        newPath: 'assets/icon.png',
        status: 'modified',
        binary: true,
        oldSize: images.beforeSize,
        newSize: images.afterSize,
        oldImageUrl: images.before,
        newImageUrl: images.after,
      },
    },
    {
      id: 'gate',
      label: 'Large-file gate',
      file: { oldPath: 'data/fixtures.json', newPath: 'data/fixtures.json', status: 'modified', binary: false, oldSize: 9_812_331, newSize: 11_002_114, tooLarge: true, additions: 40_000, deletions: 8_213 },
    },
    {
      id: 'mode',
      label: 'Mode change only',
      file: { oldPath: 'scripts/release.sh', newPath: 'scripts/release.sh', status: 'mode_changed', binary: false, oldSize: 812, newSize: 812, oldMode: 0o100644, newMode: 0o100755 },
    },
    {
      id: 'crlf',
      label: 'Line endings',
      file: { oldPath: 'notes/todo.txt', newPath: 'notes/todo.txt', status: 'modified', binary: false, oldSize: crlfOld.length, newSize: crlfNew.length, oldText: crlfOld, newText: crlfNew },
    },
    {
      id: 'added',
      label: 'Added file',
      file: { oldPath: null, newPath: 'config/bindery.yaml', status: 'added', binary: false, oldSize: null, newSize: 96, newText: 'name: review\nresource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n' },
    },
    {
      id: 'deleted',
      label: 'Deleted file',
      file: { oldPath: 'legacy/old-loader.py', newPath: null, status: 'deleted', binary: false, oldSize: 71, newSize: null, oldText: 'def load(path):\n    """Old loader."""\n    with open(path) as f:\n        return f.read()\n' },
    },
  ];
}

/** The texts behind the gated sample, built when "Show anyway" asks for them. */
export function gatedTexts(): { oldText: string; newText: string } {
  const row = (i: number, v: string) => `  { "id": ${i}, "name": "fixture-${i}", "value": "${v}" },`;
  const oldRows = Array.from({ length: 30_000 }, (_, i) => row(i, i % 3 === 0 ? 'a' : 'b'));
  const newRows = Array.from({ length: 30_000 }, (_, i) => row(i, i % 2 === 0 ? 'a' : 'b'));
  return { oldText: `[\n${oldRows.join('\n')}\n]\n`, newText: `[\n${newRows.join('\n')}\n]\n` };
}
