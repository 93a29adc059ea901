/**
 * Keeps the review state of the open sandbox loaded: at open, whenever the change list's version
 * moves (a file changed, so marks may have gone stale) and when the plan's last run changes.
 */
import { useEffect } from 'react';
import { runEndPollMs } from './review-state-logic.ts';
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
  const loaded = useReviewState((s) => s.state);
  useEffect(() => {
    const wait = runEndPollMs(loaded?.runs ?? [], Date.now());
    if (wait === null) return;
    const timer = setTimeout(() => void useReviewState.getState().load(), wait);
    return () => clearTimeout(timer);
  }, [loaded]);
}

/** Toggles the viewed mark of one file (the `v` key and the row's checkbox). */
export function toggleViewed(path: string): void {
  const { state, setViewed } = useReviewState.getState();
  const mark = state?.marks.find((m) => m.path === path);
  void setViewed([path], !mark || mark.stale);
}
