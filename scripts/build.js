// `npm run build`: the renderer with Vite into out/renderer; the Electron main process (ESM) and
// preload (CommonJS, for the sandboxed renderer) with esbuild into out/main and out/preload; and a
// bundled CLI into out/cli that the packaged app can run without tsx.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Native or Electron-provided modules that must stay outside the bundles. */
export const EXTERNALS = ['electron', 'better-sqlite3', 'fsevents'];

// ESM bundles of CommonJS dependencies call require(); give them one.
const REQUIRE_BANNER = "import { createRequire as __bindery_createRequire } from 'node:module'; const require = __bindery_createRequire(import.meta.url);";

/**
 * Builds the React renderer into out/renderer. It is built beside and swapped in by renames, so a
 * running `bindery serve` (or an e2e run) never sees a half-emptied folder.
 */
export async function buildRenderer() {
  const { build } = await import('vite');
  const target = path.join(root, 'out', 'renderer');
  const fresh = `${target}.building-${process.pid}`;
  const old = `${target}.old-${process.pid}`;
  await build({ configFile: path.join(root, 'vite.config.ts'), root: path.join(root, 'renderer'), logLevel: 'warn', build: { outDir: fresh } });
  if (fs.existsSync(target)) fs.renameSync(target, old);
  fs.renameSync(fresh, target);
  fs.rmSync(old, { recursive: true, force: true });
}

/** Builds out/main/electron-main.js, out/preload/preload.cjs and out/cli/bindery.js. */
export async function buildNode() {
  const esbuild = await import('esbuild');
  const common = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning', external: EXTERNALS };
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
    esbuild.build({
      ...common,
      stdin: {
        contents: "import { main } from './main/cli/main.ts';\nprocess.exitCode = await main(process.argv.slice(2));\n",
        resolveDir: root,
        sourcefile: 'bindery-cli-entry.ts',
        loader: 'ts',
      },
      outfile: 'out/cli/bindery.js',
      format: 'esm',
      banner: { js: `#!/usr/bin/env node\n${REQUIRE_BANNER}` },
    }),
  ]);
}

/** Builds everything. */
export async function buildAll() {
  await Promise.all([buildRenderer(), buildNode()]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  buildAll().then(
    () => console.log(`Built out/renderer, out/main, out/preload and out/cli in ${((Date.now() - started) / 1000).toFixed(1)} s.`),
    (error) => {
      console.error(`Build failed: ${error?.message ?? error}`);
      process.exitCode = 1;
    },
  );
}
