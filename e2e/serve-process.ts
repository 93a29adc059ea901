/**
 * Starts the real web host as a child process, `node bin/bindery.js serve --port 0 --data-dir
 * <dir>`, and reads the URL it prints; stops it with SIGTERM like Ctrl+C would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, where bin/ and out/ are. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const URL_PATTERN = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+)/;
const START_TIMEOUT_MS = 30_000;

/** A running `bindery serve`. */
export interface ServeProcess {
  /** The printed URL, token included. */
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  /** Everything the process wrote, for failure reports. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `bindery serve` over `dataDir` and resolves once it printed its URL. */
export async function startServe(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'bindery.js'), 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`bindery serve printed no URL within ${START_TIMEOUT_MS / 1000} s:\n${output}`)), START_TIMEOUT_MS);
    const onData = () => {
      const found = URL_PATTERN.exec(output);
      if (found) done(() => resolve(found));
    };
    const onExit = (code: number | null) => fail(new Error(`bindery serve exited (${code}) before printing its URL:\n${output}`));
    const done = (then: () => void) => {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      then();
    };
    const fail = (error: Error) => done(() => reject(error));
    child.stdout.on('data', onData);
    child.on('exit', onExit);
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return {
    url: match[0],
    origin: `http://127.0.0.1:${match[1]}`,
    token: match[2]!,
    dataDir,
    output: () => output,
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
