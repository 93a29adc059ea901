/**
 * Keeps the plan, run and review stores live while a plan screen is open: provisioning progress,
 * sandbox and plan changes, and run output arrive as events; bursts of file events coalesce into
 * one reload. Screens also poll slowly (usePolling) so a missed event never leaves them stale.
 */
import { useEffect } from 'react';
import { subscribe } from '../api/index.ts';
import { useActivity } from './activity-store.ts';
import { usePlans } from './plans-store.ts';
import { useReview } from './review-store.ts';
import { useRuns } from './runs-store.ts';

/** A function that runs at most once per `ms`, always with a final call after the last request. */
export function coalesce(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      fn();
    }, ms);
  };
}

/** Subscribes the plan stores to events while mounted. */
export function usePlansSync(): void {
  useEffect(() => {
    const reloadPlans = new Map<string, () => void>();
    const reloadPlan = (planId: string) => {
      if (!usePlans.getState().views[planId]) return;
      let reload = reloadPlans.get(planId);
      if (!reload) {
        reload = coalesce(() => void usePlans.getState().loadPlan(planId), 150);
        reloadPlans.set(planId, reload);
      }
      reload();
    };
    const reloadChanges = coalesce(() => {
      if (useReview.getState().sandboxId) void useReview.getState().loadChanges();
    }, 200);
    const stops = [
      subscribe('progress', (payload) => {
        if (!payload.operationId.startsWith('plan:')) return;
        const planId = payload.operationId.slice('plan:'.length);
        if (payload.finished) {
          usePlans.getState().setProgress(planId, null);
          reloadPlan(planId);
          return;
        }
        usePlans.getState().setProgress(planId, {
          operationId: payload.operationId,
          slotName: null,
          phase: payload.label,
          done: payload.done,
          total: payload.total,
        });
      }),
      subscribe('sandboxChanged', (payload) => {
        reloadPlan(payload.planId);
        const review = useReview.getState();
        if (
          review.planId === payload.planId &&
          (payload.sandboxId === null || payload.sandboxId === review.sandboxId)
        )
          reloadChanges();
        if (payload.reason.startsWith('plan:')) void usePlans.getState().refresh();
      }),
      subscribe('runOutput', (payload) => {
        const runs = useRuns.getState();
        if (runs.runs[payload.runId]?.lastSeq === payload.seq - 1)
          runs.append(payload.runId, { seq: payload.seq, stream: payload.stream, text: payload.text });
        else void runs.catchUp(payload.runId);
      }),
      subscribe('runChanged', (payload) => {
        void useRuns.getState().catchUp(payload.runId);
        reloadPlan(payload.planId);
        void useActivity.getState().refresh();
      }),
    ];
    return () => stops.forEach((stop) => stop());
  }, []);
}

/** Calls `task` every `ms` while `active` and the window is visible (and once when it becomes active). */
export function usePolling(task: () => unknown, ms: number, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    const tick = () => {
      if (!stopped && document.visibilityState === 'visible') void task();
    };
    const timer = setInterval(tick, ms);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
    // The task is read fresh each tick through the closure the caller memoizes.
  }, [task, ms, active]);
}

/**
 * Like usePolling, but waits for each run and backs off when runs are slow (a sandbox with
 * thousands of changed files takes a while to list): the next run starts after `minMs` or four
 * times the last run's duration, whichever is longer.
 */
export function useAdaptivePolling(task: () => Promise<unknown>, minMs: number, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const schedule = (delay: number) => {
      timer = setTimeout(() => void run(), delay);
    };
    const run = async () => {
      if (stopped) return;
      if (document.visibilityState !== 'visible') return schedule(minMs);
      const started = performance.now();
      await task().catch(() => undefined);
      if (!stopped) schedule(Math.max(minMs, (performance.now() - started) * 4));
    };
    schedule(minMs);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [task, minMs, active]);
}
