/**
 * Runs a tool's `run` command line inside a plan's sandboxes (DESIGN.md 3.5). The command is the
 * user's own text, run by the platform shell like an npm script; sandbox paths reach it only
 * through environment variables, never spliced into the command.
 */
import { spawn } from 'node:child_process';
import type { BoundResource } from '../../shared/model.ts';
import { ValidationError } from '../../shared/errors.ts';
import { withoutRepositoryVariables } from '../git/index.ts';

/** One chunk of the command's output. */
export interface RunOutput {
  stream: 'stdout' | 'stderr';
  text: string;
}

/** How a run ended. */
export interface RunOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  cwd: string;
  /** The last part of the combined output, for the activity log. */
  tail: string;
}

/** What to run and where. */
export interface RunRequest {
  command: string;
  planId: string;
  bound: BoundResource[];
  timeoutMs?: number;
  signal?: AbortSignal;
  onOutput?: (output: RunOutput) => void;
  /** The environment the command starts from (defaults to this process's). */
  baseEnv?: NodeJS.ProcessEnv;
  /** The plan's open review notes as files (notes-handover.ts), for BINDERY_REVIEW_NOTES(_MD). */
  reviewNotes?: { json: string; markdown: string };
}

const DEFAULT_TIMEOUT_MS = 30 * 60 * 1000;
const TAIL_BYTES = 64 * 1024;
const KILL_GRACE_MS = 3000;

/** `BINDERY_SLOT_<NAME>` for a slot name: upper-case, anything but letters and digits as `_`. */
export function slotEnvName(slotName: string): string {
  return `BINDERY_SLOT_${slotName.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * The environment a tool run sees: the base plus one variable per bound slot, the plan id and the
 * review notes' files. An inherited GIT_DIR or GIT_INDEX_FILE would aim the tool's own git at the
 * user's repository instead of its sandbox, so those go; so do inherited notes of another plan.
 */
export function runEnvironment(
  planId: string,
  bound: BoundResource[],
  base: NodeJS.ProcessEnv = process.env,
  reviewNotes?: RunRequest['reviewNotes'],
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...withoutRepositoryVariables(base), BINDERY_PLAN_ID: planId };
  for (const slot of bound) env[slotEnvName(slot.slotName)] = slot.sandboxPath;
  delete env.BINDERY_REVIEW_NOTES;
  delete env.BINDERY_REVIEW_NOTES_MD;
  if (reviewNotes) Object.assign(env, { BINDERY_REVIEW_NOTES: reviewNotes.json, BINDERY_REVIEW_NOTES_MD: reviewNotes.markdown });
  return env;
}

/** The working directory: the first read_write sandbox, else the first bound one. */
export function runDirectory(bound: BoundResource[]): string {
  const chosen = bound.find((b) => b.access === 'read_write') ?? bound[0];
  if (!chosen) throw new ValidationError('The tool has no bound resource to run in: bind at least one slot first.');
  return chosen.sandboxPath;
}

/** Runs the command to completion, streaming output; resolves with how it ended (never rejects on exit codes). */
export function runTool(request: RunRequest): Promise<RunOutcome> {
  const cwd = runDirectory(request.bound);
  const started = Date.now();
  const isWindows = process.platform === 'win32';
  const [shell, args] = isWindows ? ['cmd.exe', ['/d', '/s', '/c', request.command]] : ['/bin/sh', ['-c', request.command]];
  const child = spawn(shell, args, {
    cwd,
    env: runEnvironment(request.planId, request.bound, request.baseEnv, request.reviewNotes),
    detached: !isWindows,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });

  let tail = '';
  let timedOut = false;
  let cancelled = false;
  const emit = (stream: RunOutput['stream']) => (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    tail = (tail + text).slice(-TAIL_BYTES);
    request.onOutput?.({ stream, text });
  };
  child.stdout.on('data', emit('stdout'));
  child.stderr.on('data', emit('stderr'));

  const stop = () => killTree(child.pid, isWindows);
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  request.signal?.addEventListener('abort', onAbort, { once: true });
  if (request.signal?.aborted) onAbort();

  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode, signal, timedOut, cancelled, durationMs: Date.now() - started, cwd, tail });
    });
  });
}

/** Ends the command and everything it started: TERM to the process group, KILL after a grace period. */
function killTree(pid: number | undefined, isWindows: boolean): void {
  if (pid === undefined) return;
  if (isWindows) {
    spawn('taskkill', ['/pid', String(pid), '/t', '/f'], { windowsHide: true });
    return;
  }
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  signalGroup('SIGTERM');
  setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS).unref();
}
