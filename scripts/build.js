// `npm run build`: the renderer with Vite into out/renderer; the Electron main process (ESM) and
// preload (CommonJS, for the sandboxed renderer) with esbuild into out/main and out/preload; and a
// bundled CLI into out/cli (bindery.cjs and its loader bindery.js) that bin/bindery.js runs without tsx.
// `node scripts/build.js --cli` (npm run build:cli, and `prepare` on npm install) builds only the CLI.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Native or Electron-provided modules that must stay outside the bundles. */
export const EXTERNALS = ['electron', 'better-sqlite3', 'fsevents'];

// ESM bundles of CommonJS dependencies call require(); give them one.
const REQUIRE_BANNER = "import { createRequire as __bindery_createRequire } from 'node:module'; const require = __bindery_createRequire(import.meta.url);";

const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
// main/cli/version.ts reads package.json only when run from the sources.
const common = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning', external: EXTERNALS, define: { BINDERY_VERSION: JSON.stringify(version) } };

/**
 * Builds the React renderer into out/renderer. It is built beside and swapped in by renames, so a
 * running `bindery serve` (or an e2e run) never sees a half-emptied folder.
 */
export async function buildRenderer() {
  const { build } = await import('vite');
  const target = path.join(root, 'out', 'renderer');
  const fresh = `${target}.building-${process.pid}`;
  await build({ configFile: path.join(root, 'vite.config.ts'), root: path.join(root, 'renderer'), logLevel: 'warn', build: { outDir: fresh } });
  swapIn(fresh, target);
}

/**
 * Renames the folder `fresh` to `target`, moving whatever is there aside first and removing it.
 * Two builds at once (two `npm test` runs in one checkout) each put theirs in: one's target can
 * appear between the other's moving aside and renaming in, so that is retried.
 */
export function swapIn(fresh, target) {
  const olds = [];
  for (let attempt = 0; ; attempt++) {
    const old = `${target}.old-${process.pid}-${attempt}`;
    try {
      fs.renameSync(target, old);
      olds.push(old);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    try {
      fs.renameSync(fresh, target);
      break;
    } catch (error) {
      // Another build put its folder in meanwhile (EPERM: Windows' word for it).
      if (!['ENOTEMPTY', 'EEXIST', 'EPERM'].includes(error.code) || attempt >= 20) throw error;
    }
  }
  for (const old of olds) fs.rmSync(old, { recursive: true, force: true });
}

/**
 * Builds the CLI into out/cli: bindery.cjs, one CommonJS file in which each command's modules are
 * evaluated only when it runs, and bindery.js, the loader that runs it with V8's code cache
 * (scripts/cli-loader.js). inputs.json lists the sources it was built from, for bin/bindery.js.
 * Returns esbuild's metafile.
 */
export async function buildCli({ outDir = path.join(root, 'out', 'cli') } = {}) {
  const esbuild = await import('esbuild');
  const started = Date.now();
  const result = await esbuild.build({
    ...common,
    entryPoints: ['main/cli/bundle-entry.ts'],
    outfile: path.join(outDir, 'bindery.cjs'),
    // CommonJS, not ES modules: a script V8 can cache the compiled code of on Node 20 (vm.Script),
    // and esbuild turns each import() into a lazy initializer, so unused commands never run.
    format: 'cjs',
    metafile: true,
    // Written below by renames: a `bindery` started during a rebuild never reads half a bundle.
    write: false,
    define: { ...common.define, 'import.meta.url': '__bindery_module_url', 'import.meta.dirname': '__dirname' },
    banner: { js: CLI_BANNER },
  });
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of result.outputFiles) replaceFile(file.path, file.path.endsWith('.cjs') ? finishCliBundle(file.text) : file.contents);
  const loader = fs.readFileSync(path.join(root, 'scripts', 'cli-loader.js'), 'utf8');
  replaceFile(path.join(outDir, 'bindery.js'), loader.replace("'0.0.0-unbuilt'", JSON.stringify(version)));
  // Left by the split ES-module builds before this one.
  fs.rmSync(path.join(outDir, 'chunks'), { recursive: true, force: true });
  fs.rmSync(path.join(outDir, 'bindery.js.map'), { force: true });
  const inputs = Object.keys(result.metafile.inputs).filter((file) => !file.includes('node_modules/') && !file.includes(':'));
  // Written last, with the time the build began: a source changed after that makes the bundle stale.
  replaceFile(path.join(outDir, 'inputs.json'), `${JSON.stringify({ builtFrom: started, inputs })}\n`);
  return result.metafile;
}

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * Two start-up savings on the bundle's text, both keeping every column of the source map:
 * - each `import fs from 'node:fs'` became its own `__toESM(require("node:fs"), 1)`, a copy of
 *   every export as a getter (some 150 copies, several ms a start); one shared copy per built-in
 *   behaves the same, as the copies only read through to the module;
 * - the text is made pure ASCII (esbuild escapes strings, but comments keep their characters),
 *   so the loader can read it as Latin-1, several times faster than UTF-8 for megabytes.
 */
export function finishCliBundle(text) {
  const shared = text.replace(/__toESM\(require\("([\w:/]+)"\), 1\)/g, (call, id) =>
    // Padded to the call's length: the source map's columns stay right.
    BUILTINS.has(id) ? `__binderyBuiltin("${id}")`.padEnd(call.length) : call,
  );
  return shared.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// The bundle's first lines: CommonJS has no import.meta (the sources' two uses get the loader's
// module arguments), and the shared built-ins of finishCliBundle (esbuild's __toESM is defined
// below this, but only called once modules run).
const CLI_BANNER = [
  "const __bindery_module_url = require('node:url').pathToFileURL(__filename).href;",
  'const __binderyBuiltins = Object.create(null);',
  'const __binderyBuiltin = (id) => (__binderyBuiltins[id] ??= __toESM(require(id), 1));',
].join('\n');

/** Writes `file` whole beside it and renames it in, so a reader sees the old file or the new one. */
function replaceFile(file, contents) {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, contents);
  fs.renameSync(temp, file);
}

/** Builds out/main/electron-main.js, out/preload/preload.cjs and the CLI (buildCli). */
export async function buildNode() {
  const esbuild = await import('esbuild');
  await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: ['main/electron/main.ts'],
      outfile: 'out/main/electron-main.js',
      format: 'esm',
      banner: { js: REQUIRE_BANNER },
    }),
    esbuild.build({
      ...common,
      entryPoints: ['preload/preload.ts'],
      outfile: 'out/preload/preload.cjs',
      format: 'cjs',
      // A sandboxed preload may require only electron and a few polyfilled built-ins.
      external: ['electron'],
    }),
    buildCli(),
  ]);
}

/** Builds everything. */
export async function buildAll() {
  await Promise.all([buildRenderer(), buildNode()]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  const cliOnly = process.argv.includes('--cli');
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  (cliOnly ? buildCli() : buildAll()).then(
    () => console.log(cliOnly ? `Built out/cli in ${seconds()} s.` : `Built out/renderer, out/main, out/preload and out/cli in ${seconds()} s.`),
    (error) => {
      if (cliOnly && error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes("'esbuild'")) {
        // An install without devDependencies: bin/bindery.js runs the sources through tsx instead.
        console.warn('Skipped the CLI bundle: esbuild is not installed (bindery runs its sources through tsx).');
        return;
      }
      console.error(`Build failed: ${error?.message ?? error}`);
      process.exitCode = 1;
    },
  );
}
