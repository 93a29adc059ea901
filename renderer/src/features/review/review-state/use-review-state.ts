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
}

/** Toggles the viewed mark of one file (the `v` key and the row's checkbox). */
export function toggleViewed(path: string): void {
  const { state, setViewed } = useReviewState.getState();
  const mark = state?.marks.find((m) => m.path === path);
  void setViewed([path], !mark || mark.stale);
}
