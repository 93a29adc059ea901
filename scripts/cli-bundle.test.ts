/**
 * The CLI bundle and bin/bindery.js: a command loads only its own code, and the bin runs the bundle
 * unless it is missing or older than its sources (then the sources through tsx, with one notice line).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from './build.js';

const root = path.resolve(import.meta.dirname, '..');
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-cli-bundle-')));
  temps.push(dir);
  return dir;
}

/** Every source file an output loads before it runs: its own and those of the chunks it imports statically. */
function staticInputs(meta: Metafile, output: string): Set<string> {
  const seen = new Set<string>();
  const files = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const out = meta.outputs[name]!;
    for (const input of Object.keys(out.inputs)) files.add(input);
    for (const imported of out.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(output);
  return files;
}

describe('the CLI bundle (scripts/build.js buildCli)', () => {
  let meta: Metafile;
  let outDir: string;
  const outputOf = (entryPoint: string) => Object.entries(meta.outputs).find(([, out]) => out.entryPoint === entryPoint)![0];

  beforeAll(async () => {
    outDir = tempDir();
    meta = await buildCli({ outDir });
  }, 120_000);

  it('starts from an entry that loads nothing but the version before it knows the command', () => {
    const entry = [...staticInputs(meta, outputOf('main/cli/bundle-entry.ts'))];
    expect(entry.sort()).toEqual(['main/cli/bundle-entry.ts', 'main/cli/version.ts']);
  });

  it('gives each command group its own chunk: types list loads neither the web server nor the plans commands', () => {
    const types = staticInputs(meta, outputOf('main/cli/commands/types.ts'));
    expect(types.has('main/cli/commands/types.ts')).toBe(true);
    for (const file of types) expect(file).not.toMatch(/main\/web\/|main\/cli\/commands\/(plans|serve)\.ts|@modelcontextprotocol|node_modules\/commander/);
    const serve = staticInputs(meta, outputOf('main/cli/commands/serve.ts'));
    expect([...serve].some((file) => file.startsWith('main/web/'))).toBe(false);
  });

  it('lists the sources it was built from, and when, for bin/bindery.js', () => {
    const built = JSON.parse(fs.readFileSync(path.join(outDir, 'inputs.json'), 'utf8')) as { builtFrom: number; inputs: string[] };
    expect(built.inputs).toContain('main/cli/main.ts');
    expect(built.inputs.every((file) => fs.existsSync(path.join(root, file)))).toBe(true);
    expect(built.builtFrom).toBeLessThanOrEqual(fs.statSync(path.join(outDir, 'bindery.js')).mtimeMs);
  });
});

describe('bin/bindery.js', () => {
  /** A checkout of its own: the real bin, a stand-in bundle and stand-in sources (tsx from node_modules). */
  function checkout(): { dir: string; run: (...args: string[]) => ReturnType<typeof spawnSync> } {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.copyFileSync(path.join(root, 'bin', 'bindery.js'), path.join(dir, 'bin', 'bindery.js'));
    fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
    fs.mkdirSync(path.join(dir, 'main', 'cli'), { recursive: true });
    // Type annotations: only tsx runs this.
    fs.writeFileSync(path.join(dir, 'main', 'cli', 'main.ts'), "export async function main(argv: string[]): Promise<number> {\n  console.log('sources ' + argv.join(' '));\n  return 3;\n}\n");
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(dir, 'main', 'cli', 'main.ts'), old, old);
    fs.mkdirSync(path.join(dir, 'out', 'cli'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'out', 'cli', 'bindery.js'), "console.log('bundle ' + process.argv.slice(2).join(' '));\n");
    fs.writeFileSync(path.join(dir, 'out', 'cli', 'inputs.json'), JSON.stringify({ builtFrom: Date.now() - 1000, inputs: ['main/cli/main.ts'] }));
    const run = (...args: string[]) => spawnSync(process.execPath, [path.join(dir, 'bin', 'bindery.js'), ...args], { encoding: 'utf8' });
    return { dir, run };
  }

  it('runs the bundle, silently, when it is newer than every source it was built from', () => {
    const { run } = checkout();
    const result = run('types', 'list');
    expect(result.stdout).toBe('bundle types list\n');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('runs the sources through tsx, with a one-line notice, when a source changed after the build', () => {
    const { dir, run } = checkout();
    fs.appendFileSync(path.join(dir, 'main', 'cli', 'main.ts'), '// edited\n');
    const result = run('types', 'list');
    expect(result.stdout).toBe('sources types list\n');
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/^bindery: the CLI bundle is older than the sources, .*npm run build:cli.*\n$/);
  });

  it('runs the sources when the bundle is missing or a source it was built from is gone', () => {
    const missing = checkout();
    fs.rmSync(path.join(missing.dir, 'out'), { recursive: true });
    expect(missing.run('--version').stdout).toBe('sources --version\n');
    expect(missing.run('--version').stderr).toContain('the CLI bundle is missing');

    const gone = checkout();
    const built = JSON.parse(fs.readFileSync(path.join(gone.dir, 'out', 'cli', 'inputs.json'), 'utf8')) as { inputs: string[] };
    fs.writeFileSync(path.join(gone.dir, 'out', 'cli', 'inputs.json'), JSON.stringify({ builtFrom: Date.now(), inputs: [...built.inputs, 'main/cli/renamed.ts'] }));
    expect(gone.run().stdout).toBe('sources \n');
  });
});
