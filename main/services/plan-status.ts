/**
 * A plan's status and what it announces: the status row with its history, the activity log line
 * and the `plan` event for each change, and the refresh after a commit or an undo (committed,
 * partially committed, or ready again when no commit is in effect).
 */
import type { Database } from 'better-sqlite3';
import { logActivity } from '../registry/activity.ts';
import * as plans from '../registry/plans.ts';
import { planCommits } from '../registry/sandbox-commits.ts';
import type { PlanStatusValue } from '../../shared/dto.ts';
import type { SandboxEvent, SandboxManager } from '../sandbox/index.ts';

/** Events a host forwards: the engine's, plus plan status changes. */
export type PlanEvent = SandboxEvent | { type: 'plan'; planId: string; status: PlanStatusValue };

/** The status keeper of one PlanService. */
export class PlanStatusBook {
  private readonly listeners = new Set<(event: PlanEvent) => void>();
  /** Plan statuses being refreshed after recovery finished a commit or an undo (see `recovered` events). */
  private readonly refreshing = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly sandboxes: SandboxManager,
    private readonly now: () => Date,
  ) {}

  /** Subscribes to plan and sandbox events; returns the unsubscribe function. */
  onEvent(listener: (event: PlanEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends an event to every listener. */
  emit(event: PlanEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** The current time as stored. */
  stamp(): string {
    return this.now().toISOString();
  }

  /** Records a status (with why, and the error when it failed); a change is logged and announced. */
  setStatus(planId: string, status: PlanStatusValue, detail: string, error: string | null = null): void {
    const before = plans.getPlan(this.db, planId)?.status;
    plans.setPlanStatus(this.db, planId, status, detail, this.stamp(), error);
    if (before !== status) {
      this.log(`plan.${status}`, planId, `Plan ${status.replace('_', ' ')}: ${error ?? detail}.`);
      this.emit({ type: 'plan', planId, status });
    }
  }

  /** One line of the activity log about a plan. */
  log(kind: string, planId: string, message: string): void {
    logActivity(this.db, { at: this.stamp(), kind, planId, sandboxId: null, message });
  }

  /**
   * After a commit or undo: committed when no live sandbox has changes left, else partially
   * committed. `known`: what a commit just counted left, by sandbox id (those are not listed again).
   */
  async refreshCommitStatus(planId: string, known: ReadonlyMap<string, number> = new Map()): Promise<void> {
    if (planCommits(this.db, planId).every((c) => c.undoneAt !== null)) {
      this.setStatus(planId, 'ready', 'no commit in effect');
      return;
    }
    const live = this.sandboxes.planSandboxes(planId).filter((s) => s.status === 'ready' || s.status === 'committed');
    const remaining = await Promise.all(
      live.map((s) =>
        (known.has(s.id) ? Promise.resolve(known.get(s.id)!) : this.sandboxes.changes(s.id)).then(
          (c) => (typeof c === 'number' ? c : s.access === 'read_only' ? 0 : c.changes.filter((change) => change.drift !== 'applied').length),
          () => 1,
        ),
      ),
    );
    const left = remaining.reduce((sum, n) => sum + n, 0);
    if (left === 0) this.setStatus(planId, 'committed', 'every change committed');
    else this.setStatus(planId, 'partially_committed', `${left} change(s) not committed yet`);
  }

  /**
   * An undo that recovery finished (at start, or before a commit or undo to the same folder, for
   * any plan) may leave its plan with no commit in effect: its status is refreshed, and the next
   * `refreshed()` waits for it.
   */
  refreshAfterRecovery(planId: string): void {
    const refresh: Promise<void> = this.refreshCommitStatus(planId)
      .catch(() => undefined)
      .finally(() => this.refreshing.delete(refresh));
    this.refreshing.add(refresh);
  }

  /** Resolves when the refreshes started by recovery have finished. */
  async refreshed(): Promise<void> {
    await Promise.all([...this.refreshing]);
  }
}
