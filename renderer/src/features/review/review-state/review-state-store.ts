/**
 * The open sandbox's review state (issue 23): its viewed marks, runs and the scope the screen
 * shows, loaded with reviewState and changed with markViewed. Marks change at once on screen and
 * are put right from the server's answer.
 */
import { create } from 'zustand';
import type { ReviewScope, ReviewState } from '../../../../../shared/review-dto.ts';
import { api } from '../../../api/index.ts';
import { scopeKey, validScope } from './review-state-logic.ts';

/** The store's state and actions. */
export interface ReviewStateStore {
  planId: string | null;
  sandboxId: string | null;
  scope: ReviewScope;
  state: ReviewState | null;
  /** The scope `state.scopePaths` were computed for. */
  loadedScope: string | null;
  error: unknown;
  /** Why the scope last asked for could not be shown (the screen fell back to all changes), until another is chosen. */
  scopeError: string | null;
  open(planId: string, sandboxId: string): void;
  load(): Promise<void>;
  setScope(scope: ReviewScope): void;
  setViewed(paths: string[], viewed: boolean): Promise<void>;
}

/** The review state of the sandbox on screen. */
export const useReviewState = create<ReviewStateStore>()((set, get) => {
  let loading: Promise<void> | null = null;
  let again = false;
  // Marks asked for and not yet confirmed by a load that began after the server took them: a load
  // already under way when the person clicked answers without them, and must not undo the click.
  const pending = new Map<string, { viewed: boolean; at: string; token: symbol }>();
  const overlay = (state: ReviewState): ReviewState => {
    if (pending.size === 0) return state;
    const marks = state.marks.filter((m) => !pending.has(m.path));
    for (const [path, mark] of pending) if (mark.viewed) marks.push({ path, viewedAt: mark.at, stale: false });
    return { ...state, marks };
  };
  const loadOnce = async (): Promise<void> => {
    const { planId, sandboxId, scope } = get();
    if (!planId || !sandboxId) return;
    try {
      const state = await api.reviewState({ plan: planId, sandbox: sandboxId, scope });
      if (get().sandboxId !== sandboxId) return;
      const kept = validScope(get().scope, state);
      set({ state: overlay(state), loadedScope: scopeKey(scope), error: null, scope: kept });
      if (scopeKey(kept) !== scopeKey(scope)) again = true;
    } catch (error) {
      if (get().sandboxId !== sandboxId) return;
      // A scope that cannot be shown (a run killed before its end, its checkpoints gone) falls back to all changes, saying why.
      if (scope.kind !== 'all') {
        set({ scope: { kind: 'all' }, scopeError: error instanceof Error ? error.message : String(error) });
        again = true;
      } else set({ error });
    }
  };
  return {
    planId: null,
    sandboxId: null,
    scope: { kind: 'all' },
    state: null,
    loadedScope: null,
    error: null,
    scopeError: null,
    open: (planId, sandboxId) => {
      if (get().sandboxId === sandboxId && get().planId === planId) return;
      pending.clear();
      set({ planId, sandboxId, scope: { kind: 'all' }, state: null, loadedScope: null, error: null, scopeError: null });
    },
    load: async () => {
      if (loading) {
        again = true;
        return loading;
      }
      loading = (async () => {
        do {
          again = false;
          await loadOnce();
        } while (again);
      })().finally(() => {
        loading = null;
      });
      return loading;
    },
    setScope: (scope) => {
      set({ scope, scopeError: null });
      void get().load();
    },
    setViewed: async (paths, viewed) => {
      const { planId, sandboxId, state } = get();
      if (!planId || !sandboxId || paths.length === 0) return;
      const token = Symbol('mark');
      const at = new Date().toISOString();
      for (const path of paths) pending.set(path, { viewed, at, token });
      if (state) set({ state: overlay(state) });
      try {
        await api.markViewed({ plan: planId, sandbox: sandboxId, paths, viewed });
      } catch (error) {
        set({ error });
      }
      // Dropped only once a load that began after the answer is in, so no older load can undo it on screen.
      await get().load().finally(() => {
        for (const path of paths) if (pending.get(path)?.token === token) pending.delete(path);
      });
    },
  };
});
