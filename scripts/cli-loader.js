#!/usr/bin/env node
// out/cli/bindery.js, the bundled `bindery` command (copied there by scripts/build.js): runs
// bindery.cjs beside it with V8's code cache, so a start compiles little of the bundle again
// (compiling it was about a quarter of a start). Each command group keeps its own cache, made by
// its first run, in the user's cache folder; a cache missing, stale or rejected is made again.
// Built-ins through process.getBuiltinModule, not `import`: an ES-module import of a built-in
// builds a facade that reads every export (fs's streams, crypto's classes), about 10 ms a start.
const { Buffer } = process.getBuiltinModule('node:buffer');
const crypto = process.getBuiltinModule('node:crypto');
const fs = process.getBuiltinModule('node:fs');
const { createRequire } = process.getBuiltinModule('node:module');
const os = process.getBuiltinModule('node:os');
const path = process.getBuiltinModule('node:path');
const vm = process.getBuiltinModule('node:vm');

const bundle = path.join(import.meta.dirname, 'bindery.cjs');
// The package version, written in by scripts/build.js: `bindery --version` needs nothing else.
const VERSION = '0.0.0-unbuilt';

/** The per-user cache folder (BINDERY_COMPILE_CACHE overrides it; "off" turns the cache off). */
function cacheDir() {
  const set = process.env.BINDERY_COMPILE_CACHE;
  if (set) return set === 'off' ? null : set;
  let home;
  try {
    home = os.homedir();
  } catch {
    // No HOME and no passwd entry (a container's arbitrary uid): no cache, never a failure.
    return null;
  }
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'Bindery', 'Cache', 'compile');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'Bindery', 'compile');
  return path.join(process.env.XDG_CACHE_HOME || path.join(home, '.cache'), 'bindery', 'compile');
}

/** The CLI's command groups, each with its own cache (main/cli/main.ts COMMANDS). */
const GROUPS = ['types', 'resources', 'projects', 'tools', 'resolve', 'plans', 'trash', 'serve', 'mcp', 'doctor'];

const hash = (text, length) => crypto.createHash('sha256').update(text).digest('hex').slice(0, length);

/** The cache file of this bundle (by path), its build and Node, and the command group (the command's first word). */
function cacheFile(stat) {
  const dir = cacheDir();
  if (!dir) return null;
  // Only the known groups (main/cli/main.ts, kept equal by a test): a typo or a data folder's name
  // would otherwise make a cache file of megabytes each; they all load every group, as help does.
  const group = process.argv.slice(2).find((arg) => GROUPS.includes(arg)) ?? 'all';
  const build = [stat.size, stat.mtimeMs, process.version, process.arch].join('\0');
  return path.join(dir, `${hash(bundle, 8)}-${hash(build, 12)}-${group}.bin`);
}

/** Removes the caches of this bundle's earlier builds (or other Node versions), so rebuilds do not pile up. */
function pruneOthers(file) {
  const [place, build] = path.basename(file).split('-');
  for (const name of fs.readdirSync(path.dirname(file))) {
    if (name.startsWith(`${place}-`) && !name.startsWith(`${place}-${build}-`)) fs.rmSync(path.join(path.dirname(file), name), { force: true });
  }
}

// A cache is a few megabytes; anything much larger is not one of ours.
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The cache file's bytes when it is a regular file of a plausible size, else undefined. Opened
 * without blocking or following a link and checked on the descriptor, so a FIFO, a device or a
 * folder put in its place is never waited on or read.
 */
function readCache(file) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size === 0 || stat.size > MAX_CACHE_BYTES) return undefined;
    const data = Buffer.alloc(stat.size);
    let read = 0;
    while (read < data.length) {
      const got = fs.readSync(fd, data, read, data.length - read, read);
      if (got === 0) break;
      read += got;
    }
    return read === data.length ? data : undefined;
  } catch {
    // No cache yet, or not one we can read.
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Compiles bindery.cjs (from the cache when it has one) and runs it. */
function run() {
  // Latin-1, which is what ASCII decodes to, is several times faster to read than UTF-8 for a
  // file of megabytes; scripts/build.js makes the bundle pure ASCII so both read the same text.
  const source = fs.readFileSync(bundle, 'latin1');
  const file = cacheFile(fs.statSync(bundle));
  const cachedData = file ? readCache(file) : undefined;
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    cachedData,
    // Custom resource handlers are ES modules loaded by import().
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (file && (!cachedData || script.cachedDataRejected)) {
    // Made once the command is done, so it holds the functions the command compiled, not just the top level.
    process.once('beforeExit', () => {
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        const temp = `${file}.${process.pid}.tmp`;
        // A new file of our own (never through a link left at the name), then renamed in.
        fs.rmSync(temp, { force: true });
        fs.writeFileSync(temp, script.createCachedData(), { flag: 'wx', mode: 0o600 });
        fs.renameSync(temp, file);
        pruneOthers(file);
      } catch {
        // A read-only or full disk only costs the next start its compile.
      }
    });
  }
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(bundle), module, bundle, import.meta.dirname);
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) process.stdout.write(`${VERSION}\n`);
else run();
