/**
 * Review state (issue 23, DESIGN 2.6): per-file "viewed" marks that go stale when the file changes
 * again, the tool's runs with their checkpoints, and the scopes a review can show (all changes,
 * those since the last review, one run's). Marks remember the change's key (engine's changeKeys),
 * which the change list computes anyway, so telling stale from fresh costs nothing more.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import type { SandboxChangeList, SandboxInfo } from '../../shared/dto.ts';
import { ConflictError, NotFoundError } from '../../shared/errors.ts';
import type { ReviewScope, ReviewState, RunCheckpoint, StoredCheckpoint, ViewedMark } from '../../shared/review-dto.ts';
import { checkpointsOf, clearMarks, marksOf, runCheckpoints, saveMarks } from '../registry/review-state.ts';
import { changeKeys, checkpointsDiffer, inRoot, type SandboxManager } from '../sandbox/index.ts';
import type { PlanService } from './plan-service.ts';
import { pickSandbox } from './sandbox-ref.ts';

/** What the service is built from (the open core's parts). */
export interface ReviewStateDeps {
  db: Database;
  plans: PlanService;
  sandboxes: SandboxManager;
  now?: () => Date;
}

/** A run's two checkpoints in one sandbox, both recorded. */
export interface RunPair {
  start: StoredCheckpoint;
  end: StoredCheckpoint;
}

/** Viewed marks, runs and scopes of a plan's sandboxes. */
export class ReviewStateService {
  constructor(readonly deps: ReviewStateDeps) {}

  /** The sandbox of a plan a reference names (the rule every host uses). */
  sandboxOf(planRef: string, ref: string): SandboxInfo {
    const planId = this.deps.plans.findPlan(planRef).id;
    return pickSandbox(planId, this.deps.sandboxes.planSandboxes(planId), ref);
  }

  /** A sandbox's marks (stale ones flagged), last review time, runs, and the paths `scope` shows. */
  async state(planRef: string, ref: string, scope: ReviewScope = { kind: 'all' }): Promise<ReviewState> {
    const sandbox = this.sandboxOf(planRef, ref);
    const { list, keys } = await this.current(planRef, sandbox);
    const marks = this.marks(sandbox.id, keys);
    const scoped = await this.scopePaths(sandbox, list, marks, scope);
    return { sandboxId: sandbox.id, marks, lastReviewAt: lastReviewAt(marks), runs: this.runs(sandbox.id), scopePaths: scoped ? [...scoped] : null };
  }

  /** Marks `paths` viewed as they are now (paths with no change are left out), or clears their marks. */
  async markViewed(planRef: string, ref: string, paths: readonly string[], viewed: boolean): Promise<ViewedMark[]> {
    const sandbox = this.sandboxOf(planRef, ref);
    const { keys } = await this.current(planRef, sandbox);
    if (viewed) {
      const at = (this.deps.now?.() ?? new Date()).toISOString();
      saveMarks(this.deps.db, sandbox.id, paths.flatMap((rel) => (keys.has(rel) ? [{ path: rel, changeKey: keys.get(rel)!, viewedAt: at }] : [])));
    } else clearMarks(this.deps.db, sandbox.id, paths);
    const asked = new Set(paths);
    return this.marks(sandbox.id, keys).filter((mark) => asked.has(mark.path));
  }

  /** A change list cut to what `scope` shows (the list itself for "all"). */
  async scopedList(list: SandboxChangeList, scope: ReviewScope | undefined): Promise<SandboxChangeList> {
    if (!scope || scope.kind === 'all') return list;
    const sandbox = this.deps.sandboxes.sandbox(list.sandboxId);
    const keys = changeKeys(sandbox) ?? new Map<string, string>();
    const shown = await this.scopePaths(sandbox, list, this.marks(sandbox.id, keys), scope);
    return shown ? { ...list, changes: list.changes.filter((c) => shown.has(c.path)) } : list;
  }

  /** The start and end checkpoints of a run in a sandbox; refused while either is missing, saying why. */
  runPair(runId: string, sandbox: SandboxInfo): RunPair {
    const { start, end } = runCheckpoints(this.deps.db, runId, sandbox.id);
    if (!start && !end) throw new NotFoundError(`The tool did not run "${runId}" in the sandbox of ${sandbox.resourceName}: choose one of its runs.`, { runId });
    if (!start) {
      throw new ConflictError(`That run of the tool recorded no checkpoint at its start in the sandbox of ${sandbox.resourceName} (the activity log says why), so its changes cannot be shown alone: show all changes instead.`, { runId });
    }
    if (!end) {
      // No process can tell another's run still working from one whose process was killed: both are said.
      throw new ConflictError(
        `That run of the tool recorded no checkpoint at its end in the sandbox of ${sandbox.resourceName}: it is still running, or it stopped before it could (its process was killed). Wait for it to end, or show all changes instead.`,
        { runId },
      );
    }
    return { start, end };
  }

  /** The sandbox's change list (remembered by the engine) and the key of each change. */
  private async current(planRef: string, sandbox: SandboxInfo): Promise<{ list: SandboxChangeList; keys: Map<string, string> }> {
    const [list] = await this.deps.plans.changes(planRef, sandbox.id);
    if (!list) throw new ConflictError(`The sandbox of ${sandbox.resourceName} has no changes to review: it is ${sandbox.status}.`, { sandboxId: sandbox.id });
    return { list, keys: changeKeys(sandbox) ?? new Map() };
  }

  private marks(sandboxId: string, keys: ReadonlyMap<string, string>): ViewedMark[] {
    return marksOf(this.deps.db, sandboxId).map((m) => ({ path: m.path, viewedAt: m.viewedAt, stale: keys.get(m.path) !== m.changeKey }));
  }

  /** The runs with a start checkpoint (one without has no changes of its own to show), oldest first. */
  private runs(sandboxId: string): RunCheckpoint[] {
    const all = checkpointsOf(this.deps.db, sandboxId);
    const ends = new Map(all.filter((c) => c.moment === 'end').map((c) => [c.runId, c.at]));
    return all
      .filter((c) => c.moment === 'start')
      .map((c) => ({ runId: c.runId, sandboxId, startedAt: c.at, endedAt: ends.get(c.runId) ?? null }))
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  }

  /**
   * The paths of `list` that `scope` shows, or null for all. Since the last review: a viewed file
   * whose mark went stale, or a file never marked that changed after the newest mark (its time, or
   * its folder's for a deletion). One run: the paths that differ between its two checkpoints.
   */
  private async scopePaths(sandbox: SandboxInfo, list: SandboxChangeList, marks: ViewedMark[], scope: ReviewScope): Promise<Set<string> | null> {
    if (scope.kind === 'all') return null;
    if (scope.kind === 'run') {
      const { start, end } = this.runPair(scope.runId, sandbox);
      const differ = new Set(await checkpointsDiffer(sandbox, start, end, this.deps.sandboxes.layout.tempDir).catch((error: unknown) => checkpointsGone(sandbox, error)));
      return new Set(list.changes.filter((c) => differ.has(c.path) || (c.oldPath !== null && differ.has(c.oldPath))).map((c) => c.path));
    }
    const since = lastReviewAt(marks);
    if (since === null) return null;
    const sinceMs = Date.parse(since);
    const byPath = new Map(marks.map((m) => [m.path, m]));
    const shown = await Promise.all(
      list.changes.map(async (change) => {
        const mark = byPath.get(change.path);
        return mark ? mark.stale : changedAfter(sandbox.path, change.path, sinceMs);
      }),
    );
    return new Set(list.changes.filter((_, index) => shown[index]).map((c) => c.path));
  }
}

/**
 * Refuses a run scope whose checkpoints cannot be read (a ref deleted by hand and its commit
 * collected, a manifest removed): said as what it is, not as git's or the disk's failure.
 */
export function checkpointsGone(sandbox: SandboxInfo, error: unknown): never {
  if (error instanceof NotFoundError || error instanceof ConflictError) throw error;
  const where = sandbox.strategy === 'git_worktree' ? sandbox.originalPath : 'the data folder';
  throw new ConflictError(`The checkpoints of that run are gone from ${where} (removed outside Bindery?), so its changes cannot be shown alone: show all changes instead.`, {
    sandboxId: sandbox.id,
    reason: error instanceof Error ? error.message : String(error),
  });
}

/** The newest mark's time, or null when nothing is marked. */
function lastReviewAt(marks: readonly ViewedMark[]): string | null {
  return marks.reduce<string | null>((newest, m) => (newest === null || m.viewedAt > newest ? m.viewedAt : newest), null);
}

/**
 * True when the sandbox's file at `rel` (or, gone, its folder) was written after `sinceMs`. The
 * inode's change time counts too: a tool that puts an old mtime back still moves it.
 */
async function changedAfter(root: string, rel: string, sinceMs: number): Promise<boolean> {
  const stat = (await fs.lstat(inRoot(root, rel)).catch(() => null)) ?? (await fs.lstat(inRoot(root, path.posix.dirname(rel) === '.' ? '' : path.posix.dirname(rel))).catch(() => null));
  return stat === null || Math.max(stat.mtimeMs, stat.ctimeMs) > sinceMs;
}
