/**
 * Tool runs (DESIGN.md 3.5) as a service: starts a plan's `run` command through the tool runner,
 * keeps its output (bounded) so a page opened mid-run can catch up, watches the sandboxes while it
 * works so change lists update live, reports output and status as events, stops it on request.
 */
import type { Database } from 'better-sqlite3';
import { ulid } from 'ulid';
import type { RunChunk, RunInfo, RunStatus } from '../../shared/dto.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { logActivity } from '../registry/activity.ts';
import type { Bindery } from './bindery.ts';
import { reviewNotesHandover } from './notes-handover.ts';
import type { PlanService } from './plan-service.ts';
import type { RegistryService } from './registry-service.ts';
import { RunCheckpoints, type RunCheckpointer } from './review-state-checkpoints.ts';
import { runTool, type RunOutcome, type RunRequest } from './tool-runner.ts';

/** What a run reports while it works. */
export type RunEvent =
  | { type: 'output'; runId: string; planId: string; chunk: RunChunk }
  | { type: 'status'; runId: string; planId: string; status: RunStatus };

/** What the service is built from; `runner` is the tool runner (replaceable for fault tests). */
export interface RunServiceOptions {
  db: Database;
  plans: PlanService;
  registry: RegistryService;
  runner?: (request: RunRequest) => Promise<RunOutcome>;
  /** Writes the plan's open review notes before each run (notes-handover.ts); the run gets their paths. */
  reviewNotes?: (planId: string) => Promise<{ json: string; markdown: string }>;
  now?: () => Date;
  /** Output characters kept per run; older chunks are dropped first (default 2 MB). */
  maxOutputChars?: number;
  /** Records each sandbox's checkpoint as a run starts and ends (the review's run scope). */
  checkpoints?: RunCheckpointer;
}

interface RunState {
  info: Omit<RunInfo, 'output' | 'truncated' | 'lastSeq'>;
  chunks: RunChunk[];
  chars: number;
  truncated: boolean;
  nextSeq: number;
  controller: AbortController;
  done: Promise<void>;
}

const DEFAULT_MAX_OUTPUT = 2 * 1024 * 1024;
const RUNNABLE = new Set(['ready', 'committed', 'partially_committed']);

/** The run service of an open core, as every host uses it: notes handed over, checkpoints recorded. */
export function runServiceFor(bindery: Bindery): RunService {
  const { db, plans, registry } = bindery;
  return new RunService({ db, plans, registry, reviewNotes: reviewNotesHandover(bindery), checkpoints: new RunCheckpoints(bindery) });
}

/** The tool runs of one process (runs are not persisted; their outcome is in the activity log). */
export class RunService {
  private readonly runs = new Map<string, RunState>();
  private readonly listeners = new Set<(event: RunEvent) => void>();

  constructor(private readonly options: RunServiceOptions) {}

  /** Subscribes to output and status events; returns the unsubscribe function. */
  onEvent(listener: (event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the tool's `run` command in the plan's sandboxes; refuses a second run of one plan. */
  start(planRef: string, options: { timeoutMs?: number } = {}): RunInfo {
    const { plans, registry } = this.options;
    const detail = plans.showPlan(planRef);
    const { plan } = detail;
    const command = registry.showTool(plan.toolId).run;
    if (!command) {
      throw new ValidationError(
        `Tool ${plan.toolName} has no run command: add "run: <command line>" to its file and import it again, or work in the sandbox paths yourself.`,
      );
    }
    if (!RUNNABLE.has(plan.status)) {
      throw new ConflictError(
        `Plan ${plan.id} is ${plan.status.replace('_', ' ')}: a tool runs only in a provisioned plan. Create a new plan to run it again.`,
      );
    }
    const running = this.latest(plan.id);
    if (running?.status === 'running')
      throw new ConflictError(`Tool ${plan.toolName} is already running in this plan: stop it first.`, {
        runId: running.id,
      });
    const live = new Set(
      detail.sandboxes
        .filter((s) => s.status === 'ready' || s.status === 'committed')
        .map((s) => s.resourceId),
    );
    const bound = detail.bound.filter((b) => live.has(b.resourceId));
    const controller = new AbortController();
    const state: RunState = {
      info: {
        id: ulid(),
        planId: plan.id,
        command,
        cwd: '',
        status: 'running',
        exitCode: null,
        signal: null,
        startedAt: this.stamp(),
        endedAt: null,
        durationMs: null,
        error: null,
      },
      chunks: [],
      chars: 0,
      truncated: false,
      nextSeq: 0,
      controller,
      done: Promise.resolve(),
    };
    this.runs.set(state.info.id, state);
    const stopWatching = plans.watch(plan.id, () => undefined);
    const runner = this.options.runner ?? runTool;
    this.log(state, 'run.started', `Ran ${plan.toolName}: ${command}`);
    this.emit({ type: 'status', runId: state.info.id, planId: plan.id, status: 'running' });
    // An async wrapper turns a runner that throws at once (bad command, no bound slot) into a failed run.
    const checkpoint = (moment: 'start' | 'end') => this.options.checkpoints?.record(plan.id, state.info.id, moment);
    state.done = (async () => {
      await checkpoint('start');
      return runner({
        command,
        planId: plan.id,
        bound,
        timeoutMs: options.timeoutMs,
        reviewNotes: await this.options.reviewNotes?.(plan.id),
        signal: controller.signal,
        onOutput: (output) => this.append(state, output),
      });
    })()
      .then(
        async (outcome) => {
          await checkpoint('end');
          this.finish(state, outcome);
        },
        (error: unknown) => this.fail(state, error),
      )
      .finally(() => stopWatching().catch(() => undefined));
    return this.view(state, Infinity);
  }

  /** Starts the run command after provisioning when the tool has one; a failure to start is a failed run, in the activity log. */
  startIfRunnable(planId: string): RunInfo | null {
    const { plans, registry } = this.options;
    try {
      // Inside the try: the tool may have been removed while the plan was provisioned.
      const { plan } = plans.showPlan(planId);
      if (!registry.showTool(plan.toolId).run) return null;
      return this.start(planId);
    } catch (error) {
      logActivity(this.options.db, {
        at: this.stamp(),
        kind: 'run.failed',
        planId,
        sandboxId: null,
        message: `The run after provisioning did not start: ${error instanceof Error ? error.message : String(error)}`,
      });
      return null;
    }
  }

  /** Throws a ConflictError while the tool's command runs in the plan: commit and discard wait for it. */
  assertIdle(planId: string, doing: string): void {
    const running = this.latest(planId);
    if (running?.status !== 'running') return;
    throw new ConflictError(
      `The tool's command is still running in this plan: stop it, or wait for it to finish, before ${doing}; files it writes meanwhile would be left out or lost.`,
      { runId: running.id },
    );
  }

  /** Stops a run and everything it started (TERM, then KILL after a grace period). */
  stop(runId: string): RunInfo {
    const state = this.state(runId);
    if (state.info.status === 'running') state.controller.abort();
    return this.view(state, Infinity);
  }

  /** A run with its output after `afterSeq` (all kept output when absent). */
  show(runId: string, afterSeq = -1): RunInfo {
    return this.view(this.state(runId), afterSeq);
  }

  /** The newest run of a plan, without output; null when it never ran. */
  latest(planId: string): RunInfo | null {
    let found: RunState | undefined;
    for (const state of this.runs.values()) if (state.info.planId === planId) found = state;
    return found ? this.view(found, Infinity) : null;
  }

  /** Resolves with the run and all its kept output once it has ended (tests and shutdown wait on it). */
  async settled(runId: string): Promise<RunInfo> {
    const state = this.state(runId);
    await state.done;
    return this.view(state, -1);
  }

  private append(state: RunState, output: { stream: RunChunk['stream']; text: string }): void {
    const chunk: RunChunk = { seq: state.nextSeq++, stream: output.stream, text: output.text };
    state.chunks.push(chunk);
    state.chars += chunk.text.length;
    const max = this.options.maxOutputChars ?? DEFAULT_MAX_OUTPUT;
    while (state.chars > max && state.chunks.length > 1) {
      state.chars -= state.chunks.shift()?.text.length ?? 0;
      state.truncated = true;
    }
    this.emit({ type: 'output', runId: state.info.id, planId: state.info.planId, chunk });
  }

  private finish(state: RunState, outcome: RunOutcome): void {
    const status: RunStatus = outcome.cancelled
      ? 'stopped'
      : outcome.timedOut
        ? 'timed_out'
        : outcome.exitCode === 0
          ? 'exited'
          : 'failed';
    Object.assign(state.info, {
      status,
      cwd: outcome.cwd,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      endedAt: this.stamp(),
      durationMs: outcome.durationMs,
    });
    const how =
      status === 'stopped'
        ? 'was stopped'
        : status === 'timed_out'
          ? 'timed out and was stopped'
          : `exited with code ${outcome.exitCode ?? `signal ${outcome.signal ?? '?'}`}`;
    this.log(
      state,
      `run.${status}`,
      `The run of ${state.info.command} ${how} after ${(outcome.durationMs / 1000).toFixed(1)} s.`,
    );
    this.emit({ type: 'status', runId: state.info.id, planId: state.info.planId, status });
  }

  private fail(state: RunState, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    Object.assign(state.info, {
      status: 'failed',
      endedAt: this.stamp(),
      error: `The command could not start: ${message}`,
    });
    this.log(state, 'run.failed', `The run of ${state.info.command} could not start: ${message}.`);
    this.emit({ type: 'status', runId: state.info.id, planId: state.info.planId, status: 'failed' });
  }

  private view(state: RunState, afterSeq: number): RunInfo {
    return {
      ...state.info,
      output: state.chunks.filter((chunk) => chunk.seq > afterSeq),
      truncated: state.truncated,
      lastSeq: state.nextSeq - 1,
    };
  }

  private state(runId: string): RunState {
    const state = this.runs.get(runId);
    if (!state)
      throw new NotFoundError(
        `There is no tool run "${runId}" in this session: runs are kept until Bindery restarts; see the activity log for older ones.`,
        { runId },
      );
    return state;
  }

  private log(state: RunState, kind: string, message: string): void {
    logActivity(this.options.db, {
      at: this.stamp(),
      kind,
      planId: state.info.planId,
      sandboxId: null,
      message,
    });
  }

  private emit(event: RunEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  private stamp(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }
}
