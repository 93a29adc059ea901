/**
 * Records a tool run's checkpoints (issue 23): when a run starts and when it ends, one of each live
 * sandbox of the plan, so the review can show that run's changes alone. A checkpoint that cannot
 * be made never stops the run: it is said in the activity log, and that run has no run scope.
 */
import { logActivity } from '../registry/activity.ts';
import { runCheckpoints, saveCheckpoint } from '../registry/review-state.ts';
import { recordCheckpoint } from '../sandbox/index.ts';
import type { SandboxInfo } from '../../shared/dto.ts';
import type { ReviewStateDeps } from './review-state-service.ts';

/** The moment of a run a checkpoint records. */
export type RunMoment = 'start' | 'end';

/** What the run service calls at a run's start and end. */
export interface RunCheckpointer {
  record(planId: string, runId: string, moment: RunMoment): Promise<void>;
}

/** Checkpoints of the live sandboxes of a plan, kept in the registry. */
export class RunCheckpoints implements RunCheckpointer {
  constructor(private readonly deps: ReviewStateDeps) {}

  /** Records a checkpoint of each live sandbox of the plan; never throws. */
  async record(planId: string, runId: string, moment: RunMoment): Promise<void> {
    const live = this.deps.sandboxes.planSandboxes(planId).filter((s) => (s.status === 'ready' || s.status === 'committed') && s.strategy !== 'none');
    await Promise.all(live.map((sandbox) => this.recordOne(sandbox, runId, moment)));
  }

  private async recordOne(sandbox: SandboxInfo, runId: string, moment: RunMoment): Promise<void> {
    const { db, sandboxes } = this.deps;
    try {
      // A copy keeps, at the start, the content of what already differs from the base (the rest is the base's).
      const changedPaths = sandbox.strategy === 'copy_on_write' && moment === 'start' ? (await sandboxes.changes(sandbox.id)).changes.flatMap((c) => (c.oldPath ? [c.path, c.oldPath] : [c.path])) : [];
      const since = moment === 'end' ? runCheckpoints(db, runId, sandbox.id).start : undefined;
      const record = await recordCheckpoint(sandbox, { runId, moment, tempDir: sandboxes.layout.tempDir, changedPaths, since });
      if (record) saveCheckpoint(db, { runId, sandboxId: sandbox.id, moment, kind: record.kind, ref: record.ref, at: this.stamp() });
    } catch (error) {
      logActivity(db, {
        at: this.stamp(),
        kind: 'run.checkpoint_failed',
        planId: sandbox.planId,
        sandboxId: sandbox.id,
        message: `The checkpoint at the ${moment} of the run in the sandbox of ${sandbox.resourceName} could not be recorded, so that run's changes cannot be shown alone: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  private stamp(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }
}
