/**
 * Keeps a plan screen's own data live without polling while events flow (issue 22): `task` runs
 * once per burst of sandbox events of the plan, and is polled only while the event stream is down.
 */
import { useEffect } from 'react';
import { subscribe } from '../api/index.ts';
import { coalesce, useAdaptivePolling } from '../stores/plans-sync.ts';

/** How long a burst of sandbox events is gathered before `task` runs. */
const BURST_MS = 250;

/** Runs `task` after sandbox events of `planId`, and polls it every `minMs` or more while events are down. */
export function usePlanLive(planId: string, task: () => Promise<unknown>, minMs: number, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let running = false;
    let again = false;
    // One run at a time: events during a slow run (a big plan) make one more run, not many.
    const run = async () => {
      if (running) return void (again = true);
      running = true;
      try {
        do {
          again = false;
          await task().catch(() => undefined);
        } while (again && !stopped);
      } finally {
        running = false;
      }
    };
    const burst = coalesce(() => void run(), BURST_MS);
    const unsubscribe = subscribe('sandboxChanged', (payload) => {
      if (payload.planId === planId && !stopped) burst();
    });
    return () => {
      stopped = true;
      unsubscribe();
    };
  }, [planId, task, active]);
  useAdaptivePolling(task, minMs, active);
}
