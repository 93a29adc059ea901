/**
 * Keeps the review state of the open sandbox loaded: at open, whenever the change list's version
 * moves (a file changed, so marks may have gone stale) and when the plan's last run changes.
 */
import { useEffect } from 'react';
import { useReviewState } from './review-state-store.ts';

/** Opens the sandbox's review state and reloads it as `version` or `runKey` change. */
export function useReviewStateSync(planId: string, sandboxId: string, version: string | undefined, runKey: string | undefined): void {
  useEffect(() => {
    useReviewState.getState().open(planId, sandboxId);
  }, [planId, sandboxId]);
  useEffect(() => {
    void useReviewState.getState().load();
  }, [planId, sandboxId, version, runKey]);
  // A run still working (perhaps started elsewhere, by the CLI) records its end later: look again until it has.
  const working = useReviewState((s) => s.state?.runs.some((r) => r.endedAt === null && Date.now() - Date.parse(r.startedAt) < RUN_END_WAIT_MS) ?? false);
  const loadedAt = useReviewState((s) => s.state);
  useEffect(() => {
    if (!working) return;
    const timer = setTimeout(() => void useReviewState.getState().load(), RUN_END_POLL_MS);
    return () => clearTimeout(timer);
  }, [working, loadedAt]);
}

/** How often the state is asked again while a run has not recorded its end. */
const RUN_END_POLL_MS = 1500;

/** A run that recorded no end for this long will not (its process ended with Bindery's): stop asking. */
const RUN_END_WAIT_MS = 24 * 60 * 60 * 1000;

/** Toggles the viewed mark of one file (the `v` key and the row's checkbox). */
export function toggleViewed(path: string): void {
  const { state, setViewed } = useReviewState.getState();
  const mark = state?.marks.find((m) => m.path === path);
  void setViewed([path], !mark || mark.stale);
}
