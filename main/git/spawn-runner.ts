/**
 * The direct runner: git as a child process Bindery drives itself. Kept beside simple-git for
 * what simple-git cannot do or does slowly: bytes on stdin, stdout consumed as it streams (and
 * git stopped when the consumer has enough), and the engine's plumbing commands, most of which
 * finish without printing anything (simple-git then waits 50 ms more before it settles).
 */
import { spawn } from 'node:child_process';
import { invocationEnvironment, SAFETY_ARGS } from './environment.ts';
import { cancelledBefore, cancelledWhile, gitFailure, gitTimedOut } from './failure.ts';
import type { GitOptions, GitResult } from './types.ts';

/** Runs `git <args>` handing stdout to `onStdout` as it arrives; an exception from `onStdout` stops git and is rethrown. */
export function spawnGit(operation: string, args: string[], options: GitOptions, onStdout: (chunk: Buffer) => void): Promise<Omit<GitResult, 'stdout'>> {
  // Already cancelled: start nothing, so there is nothing whose outcome is unknown.
  if (options.signal?.aborted) return Promise.reject(cancelledBefore(operation));
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFETY_ARGS, ...args], { cwd: options.cwd, env: invocationEnvironment(options), signal: options.signal });
    const stderrChunks: Buffer[] = [];
    let consumerError: unknown;
    let startError: Error | undefined;
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const quietFor = options.timeoutMs;
    const watch = (): void => {
      if (quietFor === undefined) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        child.kill();
        // Settled now, not at 'close': a git blocked in uninterruptible I/O outlives the kill.
        reject(gitTimedOut(operation, options.cwd, quietFor));
      }, quietFor);
    };
    watch();
    child.stdout.on('data', (chunk: Buffer) => {
      watch();
      if (consumerError !== undefined) return;
      try {
        onStdout(chunk);
      } catch (error) {
        consumerError = error;
        child.kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      watch();
      stderrChunks.push(chunk);
    });
    // A spawn failure or an abort; 'close' follows either way and settles.
    child.on('error', (error) => (startError = error));
    child.on('close', (exitCode, signalName) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(stderrChunks).toString('utf8').trim();
      const code = exitCode ?? -1;
      if (options.signal?.aborted) return reject(cancelledWhile(operation));
      if (consumerError !== undefined) return reject(consumerError);
      if (timedOut) return reject(gitTimedOut(operation, options.cwd, quietFor!));
      if (startError || !(options.okCodes ?? [0]).includes(code)) return reject(gitFailure(operation, options.cwd, { code, stderr, startError, signalName }));
      resolve({ stderr, code });
    });
    // git may exit before reading its input (e.g. a failed lookup); that EPIPE is not the failure to report.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}
