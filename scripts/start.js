// `npm start`: builds what is out of date, then launches Electron when a binary exists; otherwise
// says why and starts `bindery serve` instead, which prints the URL to open. Arguments after
// `npm start --` go to the app (e.g. --data-dir <dir>; --port/--host for serve).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildNode, buildRenderer } from './build.js';
import { findElectronBinary } from './electron-binary.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['main', 'preload', 'shared', 'renderer', 'vite.config.ts', 'package.json'];

/** Newest modification time under `entries` (files or folders), ignoring tests. */
export function newestMtime(entries) {
  let newest = 0;
  const visit = (file) => {
    let stat;
    try {
      stat = fs.statSync(file);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(file)) if (name !== 'node_modules') visit(path.join(file, name));
    } else if (!/\.test\.tsx?$/.test(file)) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const entry of entries) visit(entry);
  return newest;
}

/** True when any output is missing or older than the newest source. */
export function isStale(outputs, sourceMtime) {
  return outputs.some((file) => !fs.existsSync(file) || fs.statSync(file).mtimeMs < sourceMtime);
}

async function buildIfStale(withNode) {
  const sourceMtime = newestMtime(SOURCES.map((entry) => path.join(root, entry)));
  const renderer = [path.join(root, 'out/renderer/index.html')];
  const node = [path.join(root, 'out/main/electron-main.js'), path.join(root, 'out/preload/preload.cjs')];
  const work = [];
  if (isStale(renderer, sourceMtime)) work.push(['renderer', buildRenderer]);
  if (withNode && isStale(node, sourceMtime)) work.push(['main process and preload', buildNode]);
  if (work.length === 0) return;
  console.log(`Building ${work.map(([what]) => what).join(' and ')}...`);
  await Promise.all(work.map(([, build]) => build()));
}

/** The Electron-ABI better-sqlite3 from scripts/electron-native.js, when that script exists. */
async function electronSqlite() {
  const script = path.join(root, 'scripts', 'electron-native.js');
  if (!fs.existsSync(script)) return undefined;
  const { ensureElectronNative } = await import(pathToFileURL(script).href);
  return (await ensureElectronNative()) ?? null;
}

function run(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}

function serve(args, why) {
  console.log(`Electron cannot start here: ${why}`);
  console.log('Starting "bindery serve" instead; open the URL it prints in a browser on this machine.\n');
  run(process.execPath, [path.join(root, 'bin', 'bindery.js'), 'serve', ...args]);
}

async function start(args) {
  const electron = findElectronBinary();
  await buildIfStale(Boolean(electron.path));
  if (!electron.path) return serve(args, electron.reason);
  const binding = await electronSqlite();
  if (binding === null) return serve(args, 'better-sqlite3 could not be prepared for Electron’s ABI (see the message above).');
  const env = binding ? { ...process.env, BINDERY_SQLITE_BINDING: binding } : process.env;
  const appArgs = args.filter((arg, index) => arg.startsWith('--data-dir') || args[index - 1] === '--data-dir');
  console.log(`Starting Bindery (Electron at ${electron.path}).`);
  run(electron.path, [root, ...appArgs], env);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  start(process.argv.slice(2)).catch((error) => {
    console.error(`npm start failed: ${error?.message ?? error}`);
    process.exitCode = 1;
  });
}
