/**
 * Runs git with an argument array (never a shell string), an operation name for messages, and
 * the safety settings every call on a user's repository needs: no optional locks (so reading
 * never rewrites their index), no hooks, no pager, no prompts. Text answers go through
 * simple-git; bytes, stdin and streams through the direct runner (see spawn-runner.ts for why).
 */
import { simpleRun } from './simple-runner.ts';
import { spawnGit } from './spawn-runner.ts';
import type { GitOptions, GitResult } from './types.ts';

/** Runs `git <args>` and resolves with its output as bytes; throws a BinderyError naming `operation` on failure. */
export async function git(operation: string, args: string[], options: GitOptions): Promise<GitResult> {
  const chunks: Buffer[] = [];
  // Direct spawn: most callers feed stdin, read non-UTF-8 names, or run silent plumbing (+50 ms each in simple-git).
  const { stderr, code } = await spawnGit(operation, args, options, (chunk) => chunks.push(chunk));
  return { stdout: Buffer.concat(chunks), stderr, code };
}

/**
 * Runs `git <args>` handing stdout to `onStdout` as it arrives, for output too large to hold
 * (e.g. blob contents, of which the caller keeps only some); an exception from `onStdout` stops
 * git and is rethrown.
 */
export function gitStream(operation: string, args: string[], options: GitOptions, onStdout: (chunk: Buffer) => void): Promise<Omit<GitResult, 'stdout'>> {
  return spawnGit(operation, args, options, onStdout);
}

/** Runs git for a text answer (through simple-git) and returns UTF-8 stdout less its final line breaks. */
export async function gitText(operation: string, args: string[], options: GitOptions): Promise<string> {
  if (options.input !== undefined) return endOfText((await git(operation, args, options)).stdout.toString('utf8'));
  return endOfText((await simpleRun(operation, args, options)).stdout);
}

/** Only the line breaks go: a path git prints may end in a space (`my project `). */
function endOfText(text: string): string {
  return text.replace(/[\r\n]+$/, '');
}

/** True for a full object id (SHA-1 or SHA-256). */
export function isObjectId(text: string | undefined): text is string {
  return text !== undefined && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text);
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
