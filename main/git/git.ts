/**
 * Runs git with an argument array (never a shell string), an operation name for messages, and
 * the safety settings every call on a user's repository needs: no optional locks (so reading
 * never rewrites their index), no hooks, no pager, no prompts.
 */
import { spawn } from 'node:child_process';
import { BinderyError, CancelledError } from '../../shared/errors.ts';

/** Options of one git invocation. */
export interface GitOptions {
  cwd: string;
  /** Extra environment (e.g. GIT_INDEX_FILE for a temporary index). */
  env?: Record<string, string>;
  /** Bytes written to stdin. */
  input?: string | Buffer;
  signal?: AbortSignal;
  /** Exit codes that are not failures (default [0]). */
  okCodes?: number[];
  /** Lets git refresh an index it reads: only in Bindery's own worktrees, never in an original. */
  optionalLocks?: boolean;
}

/** What git printed and how it ended. */
export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/** No hooks, exact names, no fsmonitor daemon, and no recursing into submodules (whatever `submodule.recurse` says). */
const BASE_ARGS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.quotepath=off', '-c', 'advice.detachedHead=false', '-c', 'core.fsmonitor=false', '-c', 'submodule.recurse=false'];

/** The identity Bindery writes its own snapshot commits with, independent of user config. */
export const BINDERY_IDENTITY = {
  GIT_AUTHOR_NAME: 'Bindery',
  GIT_AUTHOR_EMAIL: 'bindery@localhost',
  GIT_COMMITTER_NAME: 'Bindery',
  GIT_COMMITTER_EMAIL: 'bindery@localhost',
};

/**
 * What `git rev-parse --local-env-vars` lists, plus GIT_NAMESPACE: variables that point git at a
 * repository, index or config other than the folder it runs in. Inherited from whoever started
 * Bindery (a hook, an alias, a terminal inside a git command), they would make git act on the
 * user's repository instead.
 */
const REPOSITORY_VARIABLES = new Set([
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_OBJECT_DIRECTORY',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_GRAFT_FILE',
  'GIT_INDEX_FILE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_REPLACE_REF_BASE',
  'GIT_PREFIX',
  'GIT_INTERNAL_SUPER_PREFIX',
  'GIT_SHALLOW_FILE',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
]);
/** The GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n> pairs that GIT_CONFIG_COUNT enables. */
const CONFIG_PAIR = /^GIT_CONFIG_(KEY|VALUE)_\d+$/;

/** `env` less the variables that aim git at another repository (for git, and for tools that run git in a sandbox). */
export function withoutRepositoryVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    // Upper-cased: Windows environment names are case-insensitive.
    const upper = name.toUpperCase();
    if (!REPOSITORY_VARIABLES.has(upper) && !CONFIG_PAIR.test(upper)) kept[name] = value;
  }
  return kept;
}

/** The environment for any git Bindery runs: its own, less the variables that aim git elsewhere, with `extra` on top. */
export function gitEnvironment(extra?: Record<string, string>): NodeJS.ProcessEnv {
  return { ...withoutRepositoryVariables(process.env), ...extra };
}

/** Runs `git <args>` and resolves with its output; throws a BinderyError naming `operation` on failure. */
export async function git(operation: string, args: string[], options: GitOptions): Promise<GitResult> {
  const chunks: Buffer[] = [];
  const { stderr, code } = await gitStream(operation, args, options, (chunk) => chunks.push(chunk));
  return { stdout: Buffer.concat(chunks), stderr, code };
}

/**
 * Runs `git <args>` handing stdout to `onStdout` as it arrives, for output too large to hold
 * (e.g. blob contents, of which the caller keeps only some); an exception from `onStdout` stops
 * git and is rethrown.
 */
export function gitStream(operation: string, args: string[], options: GitOptions, onStdout: (chunk: Buffer) => void): Promise<Omit<GitResult, 'stdout'>> {
  // Already cancelled: start nothing, so there is nothing whose outcome is unknown.
  if (options.signal?.aborted) return Promise.reject(new CancelledError(`Cancelled before running git ${operation}.`));
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...BASE_ARGS, ...args], {
      cwd: options.cwd,
      env: gitEnvironment({ GIT_OPTIONAL_LOCKS: options.optionalLocks ? '1' : '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env }),
      signal: options.signal,
    });
    const stderrChunks: Buffer[] = [];
    let consumerError: unknown;
    let spawnError: Error | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      if (consumerError !== undefined) return;
      try {
        onStdout(chunk);
      } catch (error) {
        consumerError = error;
        child.kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => stderrChunks.push(chunk));
    // A spawn failure or an abort; 'close' follows either way and settles.
    child.on('error', (error) => (spawnError = error));
    child.on('close', (exitCode, signalName) => {
      const stderr = Buffer.concat(stderrChunks).toString('utf8').trim();
      const code = exitCode ?? -1;
      if (options.signal?.aborted) return reject(new CancelledError(`Cancelled while running git ${operation}.`));
      if (consumerError !== undefined) return reject(consumerError);
      if (spawnError || !(options.okCodes ?? [0]).includes(code)) {
        const reason = stderr || spawnError?.message || (signalName ? `killed by ${signalName}` : `exit code ${code}`);
        return reject(new BinderyError('io_error', `git ${operation} failed in ${options.cwd}: ${reason}`, { operation, code, stderr }));
      }
      resolve({ stderr, code });
    });
    // git may exit before reading its input (e.g. a failed lookup); that EPIPE is not the failure to report.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

/** True for a full object id (SHA-1 or SHA-256). */
export function isObjectId(text: string | undefined): text is string {
  return text !== undefined && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text);
}

/** Runs git and returns trimmed UTF-8 stdout. */
export async function gitText(operation: string, args: string[], options: GitOptions): Promise<string> {
  return (await git(operation, args, options)).stdout.toString('utf8').trim();
}

/** Splits NUL-separated output into raw byte records (the last empty one dropped). */
export function splitNul(output: Buffer): Buffer[] {
  const records: Buffer[] = [];
  let start = 0;
  for (let index = output.indexOf(0); index !== -1; index = output.indexOf(0, start)) {
    records.push(output.subarray(start, index));
    start = index + 1;
  }
  if (start < output.length) records.push(output.subarray(start));
  return records;
}
