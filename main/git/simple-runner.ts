/**
 * The simple-git runner: argument arrays through `raw()`, with simple-git's abort and timeout
 * plugins, its guard against settings that start other programs, and its error detection
 * replaced by Bindery's (exit codes the caller accepts, messages that name the operation).
 * simple-git leaves stdin open and empty: a command that reads stdin goes through git() with input.
 */
import type { SimpleGit, SimpleGitOptions } from 'simple-git';
import { invocationEnvironment, SAFETY_ARGS } from './environment.ts';
import { cancelledBefore, cancelledWhile, gitFailure, gitTimedOut, missingFolder } from './failure.ts';
import type { GitOptions } from './types.ts';

/** A text answer from git and how it ended. */
export interface GitTextResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * simple-git refuses settings and variables that make git start another program unless told
 * otherwise. Allowed: the two Bindery pins itself (hooks to /dev/null, fsmonitor off) and what
 * the user's own environment may carry (EDITOR, PAGER, GIT_CONFIG_GLOBAL, GIT_SSH_COMMAND,
 * GIT_ASKPASS, GIT_PROXY_COMMAND...). Still refused: aliases, filters, credential helpers,
 * textconv, merge drivers, signing programs, protocol and pack overrides, GIT_CONFIG_COUNT.
 */
const ALLOWED: SimpleGitOptions['unsafe'] = {
  allowUnsafeHooksPath: true,
  allowUnsafeFsMonitor: true,
  allowUnsafeEditor: true,
  allowUnsafePager: true,
  allowUnsafeAskPass: true,
  allowUnsafeConfigPaths: true,
  allowUnsafeSshCommand: true,
  allowUnsafeGitProxy: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeTemplateDir: true,
};

let loaded: Promise<typeof import('simple-git')> | undefined;

/** simple-git, loaded at its first use: a CLI command that never asks git for text does not pay for loading it. */
function simpleGitModule(): Promise<typeof import('simple-git')> {
  return (loaded ??= import('simple-git'));
}

/** Runs `git <args>` through simple-git and resolves with its UTF-8 output; throws a BinderyError naming `operation`. */
export async function simpleRun(operation: string, args: string[], options: Omit<GitOptions, 'input'>): Promise<GitTextResult> {
  if (options.signal?.aborted) throw cancelledBefore(operation);
  const { GitPluginError } = await simpleGitModule();
  let ended: { exitCode: number; stdErr: Buffer[] } | undefined;
  const client = await simpleClient(operation, options, (error, result) => {
    ended = result;
    // Abort, timeout and the unsafe guard stay errors; an exit code is judged below, against okCodes.
    return error instanceof GitPluginError ? error : undefined;
  });
  let stdout: string;
  try {
    stdout = await withinQuiet(client, () => client.raw([...SAFETY_ARGS, ...args]), operation, options);
  } catch (error) {
    if (options.signal?.aborted) throw cancelledWhile(operation);
    if (error instanceof QuietTimeout) throw error.failure;
    if (error instanceof GitPluginError && error.plugin === 'timeout') throw gitTimedOut(operation, options.cwd, options.timeoutMs!);
    throw gitFailure(operation, options.cwd, { code: ended?.exitCode ?? -1, stderr: (error as Error).message.trim() });
  }
  const code = ended?.exitCode ?? -1;
  const stderr = Buffer.concat(ended?.stdErr ?? []).toString('utf8').trim();
  if (!(options.okCodes ?? [0]).includes(code)) {
    // simple-git writes a failure to start git into stderr as a stack; its first line is the reason.
    const startError = code < 0 ? Object.assign(new Error(stderr.split('\n')[0]), { code: /ENOENT/.test(stderr) ? 'ENOENT' : undefined }) : undefined;
    throw gitFailure(operation, options.cwd, { code, stderr: startError ? '' : stderr, startError });
  }
  return { stdout, stderr, code };
}

/** The quiet limit's own timeout, told apart from git's errors in simpleRun's catch. */
class QuietTimeout extends Error {
  constructor(readonly failure: Error) {
    super(failure.message);
  }
}

/** A second's grace after simple-git's own timeout kill, for a git to close its output. */
const KILL_GRACE_MS = 1000;

/**
 * `running`, or a timeout error once git has printed nothing for `timeoutMs` plus a grace:
 * simple-git settles at 'close', which a git blocked in uninterruptible I/O never reaches.
 */
function withinQuiet(client: SimpleGit, start: () => Promise<string>, operation: string, options: Omit<GitOptions, 'input'>): Promise<string> {
  const quietFor = options.timeoutMs;
  if (quietFor === undefined) return start();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    const watch = () => {
      clearTimeout(timer);
      const failure = gitTimedOut(operation, options.cwd, quietFor);
      timer = setTimeout(() => reject(new QuietTimeout(failure)), quietFor + KILL_GRACE_MS);
    };
    // Registered before the command starts: simple-git hands its streams over at spawn.
    client.outputHandler((_command, stdout, stderr) => {
      stdout.on('data', watch);
      stderr.on('data', watch);
    });
    watch();
  });
  const running = start();
  running.catch(() => undefined);
  return Promise.race([running, limit]).finally(() => clearTimeout(timer));
}

/**
 * A simple-git instance for one invocation: simple-git holds folder, environment, signal and
 * timeout per instance (its process limit too), and each call has its own; callers bound their
 * own parallelism, as the resources table and the engine's pools do.
 */
export async function simpleClient(operation: string, options: Omit<GitOptions, 'input'>, errors?: SimpleGitOptions['errors']): Promise<SimpleGit> {
  const { simpleGit } = await simpleGitModule();
  try {
    return simpleGit({
      baseDir: options.cwd,
      abort: options.signal,
      ...(options.timeoutMs === undefined ? {} : { timeout: { block: options.timeoutMs } }),
      // Settle on 'close' only, when every byte of output has arrived.
      completion: { onClose: true, onExit: false },
      unsafe: ALLOWED,
      ...(errors ? { errors } : {}),
    }).env(invocationEnvironment(options));
  } catch {
    // simple-git checks the folder before it starts anything.
    throw missingFolder(operation, options.cwd);
  }
}
