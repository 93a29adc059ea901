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
    const run = coalesce(() => void task().catch(() => undefined), BURST_MS);
    return subscribe('sandboxChanged', (payload) => {
      if (payload.planId === planId) run();
    });
  }, [planId, task, active]);
  useAdaptivePolling(task, minMs, active);
}
