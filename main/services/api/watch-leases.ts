/**
 * Live change lists on demand: a client watching a plan's review holds a lease it renews; the
 * file watchers stop when the lease runs out, so a closed window never leaves watchers behind.
 */
import type { PlanService } from '../plan-service.ts';

/** How long a lease lasts without renewal. */
export const WATCH_LEASE_MS = 60_000;

interface Lease {
  stop: () => Promise<void>;
  timer: NodeJS.Timeout;
  count: number;
}

/** The plan watches of one API object. */
export class WatchLeases {
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly plans: PlanService,
    private readonly leaseMs = WATCH_LEASE_MS,
  ) {}

  /** Starts or renews the watch of a plan's live sandboxes; returns how many are watched. */
  watch(planId: string): { watching: number; expiresInMs: number } {
    const existing = this.leases.get(planId);
    if (existing) {
      existing.timer.refresh();
      return { watching: existing.count, expiresInMs: this.leaseMs };
    }
    const live = this.plans
      .showPlan(planId)
      .sandboxes.filter((s) => (s.status === 'ready' || s.status === 'committed') && s.strategy !== 'none');
    const stop = this.plans.watch(planId, () => undefined);
    const timer = setTimeout(() => void this.release(planId), this.leaseMs);
    timer.unref();
    this.leases.set(planId, { stop, timer, count: live.length });
    return { watching: live.length, expiresInMs: this.leaseMs };
  }

  /** Stops watching a plan (its sandboxes are about to go, or the lease ran out). */
  async release(planId: string): Promise<void> {
    const lease = this.leases.get(planId);
    if (!lease) return;
    this.leases.delete(planId);
    clearTimeout(lease.timer);
    await lease.stop().catch(() => undefined);
  }
}
