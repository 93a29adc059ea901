/**
 * Whether a plan's tool command is running now, so the plan and review screens can say Running
 * and hold Commit and Discard (the host refuses them meanwhile, see plans-api.ts).
 */
import type { PlanView } from '../../../../shared/dto.ts';
import { useRuns } from '../../stores/runs-store.ts';

/** Why Commit and Discard wait while the command runs, for their tooltips. */
export const RUNNING_HOLD = "The tool's command is still running: stop it or let it finish first, so nothing it writes is left out or lost.";

/** True while the plan's last run is running (the run store's fresher state first, else the plan view's). */
export function useRunning(view: PlanView | undefined): boolean {
  const id = view?.lastRun?.id;
  const live = useRuns((s) => (id ? s.runs[id]?.info.status : undefined));
  return (live ?? view?.lastRun?.status) === 'running';
}

/**
 * Stops a run and resolves once the host says it has ended (until then it refuses commits):
 * true then, false when it still runs after `ms`.
 */
export async function stopAndWait(runId: string, ms = 20_000): Promise<boolean> {
  await useRuns.getState().stop(runId);
  const until = Date.now() + ms;
  while (useRuns.getState().runs[runId]?.info.status === 'running') {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
    await useRuns.getState().catchUp(runId);
  }
  return true;
}
