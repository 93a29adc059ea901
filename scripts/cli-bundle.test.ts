/**
 * The CLI bundle and bin/bindery.js: a command evaluates only its own code, compiles from a cache
 * after its first run, and the bin runs the bundle unless it is missing or older than its sources
 * (then the sources through tsx, with one notice line).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, finishCliBundle } from './build.js';

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

/** How `importer` imports `imported` in the bundle's module graph: 'import-statement', 'dynamic-import' or none. */
function importKinds(meta: Metafile, importer: string, imported: string): string[] {
  return meta.inputs[importer]!.imports.filter((entry) => entry.path === imported).map((entry) => entry.kind);
}

describe('the CLI bundle (scripts/build.js buildCli)', () => {
  let meta: Metafile;
  let outDir: string;
  let cache: string;
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [path.join(outDir, 'bindery.js'), ...args], { encoding: 'utf8', env: { ...process.env, BINDERY_COMPILE_CACHE: cache, ...env } });
  const cacheFiles = () => (fs.existsSync(cache) ? fs.readdirSync(cache).sort() : []);

  beforeAll(async () => {
    // Beside a link to node_modules, where the bundle finds better-sqlite3 as out/cli does.
    const dir = tempDir();
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
    fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
    outDir = path.join(dir, 'cli');
    cache = path.join(tempDir(), 'cache');
    meta = await buildCli({ outDir });
  }, 120_000);

  it('imports each command group, and the web server and MCP SDK inside their commands, only when run', () => {
    expect(importKinds(meta, 'main/cli/bundle-entry.ts', 'main/cli/main.ts')).toEqual(['dynamic-import']);
    for (const group of ['types', 'plans', 'serve', 'mcp']) expect(importKinds(meta, 'main/cli/main.ts', `main/cli/commands/${group}.ts`)).toEqual(['dynamic-import']);
    expect(importKinds(meta, 'main/cli/commands/serve.ts', 'main/web/server.ts')).toEqual(['dynamic-import']);
    expect(meta.inputs['main/cli/commands/mcp.ts']!.imports.filter((entry) => entry.path.includes('@modelcontextprotocol')).map((entry) => entry.kind)).not.toContain('import-statement');
    // The core only once a command runs: --version and --help never open it.
    expect(importKinds(meta, 'main/cli/context.ts', 'main/services/bindery.ts')).toEqual(['dynamic-import']);
  });

  it('answers --version from the loader, before reading the bundle', () => {
    const result = cli(['--version']);
    expect(result.stdout).toBe(`${(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version}\n`);
    expect(cacheFiles()).toEqual([]);
  });

  it('keeps a compile cache per command group, reuses it, and makes a bad one again', () => {
    const data = tempDir();
    const first = cli(['--data-dir', data, 'types', 'list']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('git-checkout');
    const [file] = cacheFiles();
    expect(file).toMatch(/-types\.bin$/);
    const made = fs.statSync(path.join(cache, file!)).mtimeMs;

    const again = cli(['--data-dir', data, 'types', 'list']);
    expect(again.stdout).toBe(first.stdout);
    // Accepted, so not written again.
    expect(fs.statSync(path.join(cache, file!)).mtimeMs).toBe(made);

    fs.writeFileSync(path.join(cache, file!), 'not a code cache');
    const rejected = cli(['--data-dir', data, 'types', 'list']);
    expect(rejected.stdout).toBe(first.stdout);
    expect(fs.readFileSync(path.join(cache, file!)).length).toBeGreaterThan(1000);

    expect(cli(['--data-dir', data, 'resources', 'list']).status).toBe(0);
    expect(cacheFiles().map((name) => name.replace(/^[0-9a-f]+-[0-9a-f]+-/, ''))).toEqual(['resources.bin', 'types.bin']);
  });

  it('drops the caches of an earlier build of the bundle when it makes a new one', () => {
    const data = tempDir();
    expect(cli(['--data-dir', data, 'types', 'list']).status).toBe(0);
    const before = cacheFiles();
    // A rebuild: the same bundle with a new time.
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(outDir, 'bindery.cjs'), later, later);
    expect(cli(['--data-dir', data, 'types', 'list']).status).toBe(0);
    const after = cacheFiles();
    expect(after).toHaveLength(1);
    expect(before).not.toContain(after[0]);
  });

  it('runs without a cache when it is turned off or its folder cannot be written', () => {
    const data = tempDir();
    expect(cli(['--data-dir', data, 'types', 'list'], { BINDERY_COMPILE_CACHE: 'off' }).stdout).toContain('git-checkout');
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, '');
    const blocked = cli(['--data-dir', data, 'types', 'list'], { BINDERY_COMPILE_CACHE: path.join(file, 'cache') });
    expect(blocked.status).toBe(0);
    expect(blocked.stderr).toBe('');
  });

  it('runs on when the cache file is a FIFO or a device (never blocks on or reads them)', () => {
    const data = tempDir();
    expect(cli(['--data-dir', data, 'types', 'list']).status).toBe(0);
    const file = path.join(cache, cacheFiles().find((name) => name.endsWith('-types.bin'))!);
    fs.rmSync(file);
    spawnSync('mkfifo', [file]);
    const fifo = spawnSync(process.execPath, [path.join(outDir, 'bindery.js'), '--data-dir', data, 'types', 'list'], {
      encoding: 'utf8',
      env: { ...process.env, BINDERY_COMPILE_CACHE: cache },
      timeout: 30_000,
    });
    expect(fifo.error, 'blocked reading the FIFO').toBeUndefined();
    expect([fifo.status, fifo.stderr]).toEqual([0, '']);
    fs.rmSync(file);
    fs.symlinkSync('/dev/zero', file);
    const device = spawnSync(process.execPath, [path.join(outDir, 'bindery.js'), '--data-dir', data, 'types', 'list'], {
      encoding: 'utf8',
      env: { ...process.env, BINDERY_COMPILE_CACHE: cache },
      timeout: 30_000,
    });
    expect(device.error, 'read /dev/zero').toBeUndefined();
    expect([device.status, device.stderr]).toEqual([0, '']);
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() !== 0)('runs without HOME as a user with no home at all (os.homedir() throws)', () => {
    // A container's arbitrary uid: no passwd entry, no HOME, so no cache folder can be named.
    for (let dir = outDir; dir !== path.dirname(dir); dir = path.dirname(dir)) if (dir.startsWith(os.tmpdir()) && dir !== os.tmpdir()) fs.chmodSync(dir, 0o755);
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !['HOME', 'XDG_CACHE_HOME', 'BINDERY_COMPILE_CACHE'].includes(key)));
    const result = spawnSync(process.execPath, [path.join(outDir, 'bindery.js'), '--help'], { encoding: 'utf8', env, uid: 54321, gid: 54321, cwd: '/' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: bindery');
  });

  it('replaces its files by renames on a rebuild, so a start during a build never reads half a bundle', async () => {
    const names = ['bindery.cjs', 'bindery.js', 'inputs.json'];
    const inodes = () => names.map((name) => fs.statSync(path.join(outDir, name)).ino);
    const before = inodes();
    await buildCli({ outDir });
    const after = inodes();
    for (const [index, name] of names.entries()) expect(after[index], name).not.toBe(before[index]);
    expect(fs.readdirSync(outDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(cli(['--data-dir', tempDir(), 'types', 'list']).status).toBe(0);
  }, 120_000);

  it('keeps one cache for typos and unknown words, not one per word', () => {
    const data = tempDir();
    for (const word of ['frobnicate', 'lsit']) expect(cli(['--data-dir', data, word]).status).toBe(2);
    expect(cli(['--data-dir', data, '--help']).status).toBe(0);
    const words = cacheFiles().map((name) => name.replace(/^[0-9a-f]+-[0-9a-f]+-/, ''));
    expect(words).toContain('all.bin');
    expect(words.filter((name) => /frobnicate|lsit/.test(name))).toEqual([]);
  });

  it('knows the same command groups as main/cli/main.ts', async () => {
    const { commandsFor } = await import('../main/cli/main.ts');
    const loader = fs.readFileSync(path.join(root, 'scripts', 'cli-loader.js'), 'utf8');
    const groups = JSON.parse(/GROUPS = (\[[^\]]*\])/.exec(loader)![1]!.replaceAll("'", '"')) as string[];
    expect(groups).toEqual(commandsFor([]));
  });

  it('is pure ASCII, which the loader reads as Latin-1, and shares one copy of each built-in', () => {
    const text = fs.readFileSync(path.join(outDir, 'bindery.cjs'), 'utf8');
    expect(/[\u0080-\uffff]/.test(text)).toBe(false);
    expect(text).not.toMatch(/__toESM\(require\("node:/);
    expect(finishCliBundle('a = __toESM(require("node:fs"), 1); b = __toESM(require("yaml"), 1); // d\u00e9j\u00e0 \u2014')).toBe(
      'a = __binderyBuiltin("node:fs")   ; b = __toESM(require("yaml"), 1); // d\\u00e9j\\u00e0 \\u2014',
    );
  });

  it('lists the sources it was built from, and when, for bin/bindery.js', () => {
    const built = JSON.parse(fs.readFileSync(path.join(outDir, 'inputs.json'), 'utf8')) as { builtFrom: number; inputs: string[] };
    expect(built.inputs).toContain('main/cli/main.ts');
    expect(built.inputs.every((input) => fs.existsSync(path.join(root, input)))).toBe(true);
    expect(built.builtFrom).toBeLessThanOrEqual(fs.statSync(path.join(outDir, 'bindery.cjs')).mtimeMs);
  });
});

describe('bin/bindery.js', () => {
  /** A checkout of its own: the real bin, a stand-in bundle and stand-in sources (tsx from node_modules). */
  function checkout(where = tempDir()): { dir: string; run: (...args: string[]) => ReturnType<typeof spawnSync> } {
    const dir = where;
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
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

  it('answers --version from package.json, whatever the state of the bundle', () => {
    const { dir, run } = checkout();
    fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module","version":"9.8.7"}\n');
    fs.rmSync(path.join(dir, 'out'), { recursive: true });
    const result = run('--version');
    expect(result.stdout).toBe('9.8.7\n');
    expect(result.stderr).toBe('');
  });

  it('says which Node it needs on one without process.getBuiltinModule (before 20.16), not a TypeError', () => {
    const { dir } = checkout();
    // Stands in for an older Node: the one thing the bin needs of 20.16 and later, taken away.
    const older = path.join(dir, 'older-node.mjs');
    fs.writeFileSync(older, 'delete process.getBuiltinModule;\n');
    for (const args of [['--version'], ['types', 'list']]) {
      const result = spawnSync(process.execPath, ['--import', pathToFileURL(older).href, path.join(dir, 'bin', 'bindery.js'), ...args], { encoding: 'utf8' });
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`bindery: needs Node.js 20.19 or later, and this is Node ${process.version}. Install a newer Node.js (https://nodejs.org), then run bindery again.\n`);
      expect(result.status).toBe(1);
    }
  });

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

  it('trusts the bundle of an installed package (inside node_modules), whose sources do not change under it', () => {
    const { dir, run } = checkout(path.join(tempDir(), 'node_modules', 'bindery'));
    fs.appendFileSync(path.join(dir, 'main', 'cli', 'main.ts'), '// edited\n');
    expect(run('types', 'list').stdout).toBe('bundle types list\n');
    // A missing bundle still falls back to the sources.
    fs.rmSync(path.join(dir, 'out'), { recursive: true });
    expect(run('types', 'list').stdout).toBe('sources types list\n');
  });

  it('runs the sources when the bundle is missing or a source it was built from is gone', () => {
    const missing = checkout();
    fs.rmSync(path.join(missing.dir, 'out'), { recursive: true });
    const result = missing.run('types', 'list');
    expect(result.stdout).toBe('sources types list\n');
    expect(result.stderr).toContain('the CLI bundle is missing');

    const gone = checkout();
    const built = JSON.parse(fs.readFileSync(path.join(gone.dir, 'out', 'cli', 'inputs.json'), 'utf8')) as { inputs: string[] };
    fs.writeFileSync(path.join(gone.dir, 'out', 'cli', 'inputs.json'), JSON.stringify({ builtFrom: Date.now(), inputs: [...built.inputs, 'main/cli/renamed.ts'] }));
    expect(gone.run().stdout).toBe('sources \n');
  });

  it('runs the sources when inputs.json is not a list of sources (a hand edit, another tool)', () => {
    for (const text of ['{}', '{"builtFrom":1,"inputs":"main/cli/main.ts"}', 'null']) {
      const odd = checkout();
      fs.writeFileSync(path.join(odd.dir, 'out', 'cli', 'inputs.json'), text);
      const result = odd.run('types', 'list');
      expect(result.stdout, text).toBe('sources types list\n');
      expect(result.stderr, text).toContain('the CLI bundle is missing');
    }
  });
});
