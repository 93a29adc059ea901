#!/usr/bin/env node
// The `bindery` command: runs the bundled CLI (out/cli, built on `npm install` by `prepare`). In a
// development checkout where the bundle is missing or older than a source it was built from, it
// runs the TypeScript sources through tsx instead, with a one-line notice (slower start).
// Built-ins through process.getBuiltinModule: an ES-module import of one builds a facade that reads
// every export (fs's streams among them), milliseconds of each start. It came in Node 20.16 (and
// package.json asks for 20.19, which npm only warns about): an older Node gets a sentence, not a TypeError.
if (typeof process.getBuiltinModule !== 'function') {
  process.stderr.write(`bindery: needs Node.js 20.19 or later, and this is Node ${process.version}. Install a newer Node.js (https://nodejs.org), then run bindery again.\n`);
  process.exit(1);
}
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');
const { pathToFileURL } = process.getBuiltinModule('node:url');

const root = path.resolve(import.meta.dirname, '..');

/** Why the bundle cannot be used, or null when it is current. */
function staleBundle() {
  let built;
  try {
    built = JSON.parse(fs.readFileSync(path.join(root, 'out', 'cli', 'inputs.json'), 'utf8'));
    // Not what scripts/build.js writes: judge the bundle unknown rather than fail every command.
    if (!Array.isArray(built?.inputs) || typeof built.builtFrom !== 'number') return 'missing';
    if (!fs.existsSync(path.join(root, 'out', 'cli', 'bindery.js'))) return 'missing';
  } catch {
    return 'missing';
  }
  // Sources change under a bundle only in a checkout; an installed package (inside a node_modules
  // folder) skips the stat of every source, about 5 ms of each start. A checkout without its own
  // .git (a subfolder of another repository, a downloaded archive) is still checked.
  if (root.split(path.sep).includes('node_modules')) return null;
  for (const input of built.inputs) {
    // A source gone (renamed, deleted) means the sources moved on too.
    const changed = fs.statSync(path.join(root, input), { throwIfNoEntry: false });
    if (!changed || changed.mtimeMs > built.builtFrom) return 'older than the sources';
  }
  return null;
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The package's version, whichever code would run: no bundle or source needs loading for it.
  process.stdout.write(`${JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version}\n`);
} else {
  const stale = staleBundle();
  if (stale === null) {
    await import(pathToFileURL(path.join(root, 'out', 'cli', 'bindery.js')).href);
  } else {
    process.stderr.write(`bindery: the CLI bundle is ${stale}, so the sources run through tsx (slower start); "npm run build:cli" rebuilds it.\n`);
    const { register } = await import('tsx/esm/api');
    register();
    const { main } = await import('../main/cli/main.ts');
    process.exitCode = await main(args);
  }
}
