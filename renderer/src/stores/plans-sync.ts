/**
 * Keeps the plan, run and review stores live while a plan screen is open: provisioning progress,
 * sandbox and plan changes, and run output arrive as events; bursts of file events coalesce into
 * one reload, and a pushed change-list version the review already holds asks nothing. Screens
 * poll (useAdaptivePolling) only while the event stream is down, and catch up when it is back.
 */
import { useEffect } from 'react';
import { onConnection, subscribe } from '../api/index.ts';
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
    // The newest pushed version per burst; undefined when an event of the burst carried none.
    let pushed: { sandboxId: string; version: string | undefined } | null = null;
    const reloadChanges = coalesce(() => {
      const review = useReview.getState();
      const last = pushed;
      pushed = null;
      if (!review.sandboxId) return;
      if (last) review.onVersion(last.sandboxId, last.version);
      else void review.loadChanges();
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
        // Files changing leave the plan's view as it was (its lists are asked by version, use-plan-data.ts).
        if (payload.reason !== 'files') reloadPlan(payload.planId);
        const review = useReview.getState();
        if (
          review.planId === payload.planId &&
          (payload.sandboxId === null || payload.sandboxId === review.sandboxId)
        ) {
          // A burst mixing events with and without a version, or for the whole plan, loads.
          pushed =
            payload.sandboxId !== null && (pushed === null || pushed.version !== undefined)
              ? { sandboxId: payload.sandboxId, version: payload.version }
              : { sandboxId: review.sandboxId ?? '', version: undefined };
          reloadChanges();
        }
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
 * The fallback for a host whose events stopped: polls `task` only while the event stream is down
 * (events say when something changed; polling then would only transfer again what the screen
 * has), and runs it once when the stream comes back, for what was missed. Waits for each run and
 * backs off when runs are slow: the next starts after `minMs` or four times the last run's time.
 */
export function useAdaptivePolling(task: () => Promise<unknown>, minMs: number, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let up = false;
    let wasUp = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const clear = () => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    const schedule = (delay: number) => {
      clear();
      timer = setTimeout(() => void run(), delay);
    };
    const run = async () => {
      timer = null;
      if (stopped || up) return;
      if (document.visibilityState !== 'visible') return schedule(minMs);
      const started = performance.now();
      await task().catch(() => undefined);
      if (!stopped && !up) schedule(Math.max(minMs, (performance.now() - started) * 4));
    };
    const stopWatching = onConnection((now) => {
      if (now === up && (now || timer)) return;
      up = now;
      if (!now) return schedule(minMs);
      clear();
      // Back after an outage: events sent meanwhile were lost.
      if (wasUp) void task().catch(() => undefined);
      wasUp = true;
    });
    return () => {
      stopped = true;
      stopWatching();
      clear();
    };
  }, [task, minMs, active]);
}
