/**
 * The change lists of the open plan's sandboxes, for the plan page's counts and "Commit all"
 * (issue 22): each is asked as the review asks its one list, "changes since version V", so a
 * list that did not change comes back as "unchanged" without its files, and a pushed version
 * the page already holds asks nothing at all.
 */
import { create } from 'zustand';
import { applyChangeDelta } from '../../../shared/change-delta.ts';
import type { SandboxChangeList } from '../../../shared/dto.ts';
import { api } from '../api/index.ts';

/** The open plan's lists by sandbox id, and how they are kept current. */
export interface PlanChangesState {
  planId: string | null;
  lists: Record<string, SandboxChangeList>;
  error: unknown;
  /** Brings the lists of `sandboxIds` (the plan's live sandboxes) up to date; others are dropped. */
  load(planId: string, sandboxIds: readonly string[]): Promise<void>;
  /** A pushed version of one sandbox's list: asks for what changed, or nothing when it is the one held. */
  onVersion(planId: string, sandboxId: string, version: string | undefined): Promise<void>;
}

/** The one store of the plan page's change lists. */
export const usePlanChanges = create<PlanChangesState>()((set, get) => {
  let generation = 0;
  /** One sandbox's list brought up to date: the delta since the list held, else the whole list. */
  const refresh = async (plan: string, sandbox: string, mine: number): Promise<void> => {
    const held = get().lists[sandbox] ?? null;
    const delta = await api.changesSince({ plan, sandbox, since: held?.version });
    if (mine !== generation) return;
    let list = applyChangeDelta(held, delta);
    if (list === null && delta.kind !== 'full') {
      // The list held is not the one the delta starts from: start again from the whole list.
      const full = await api.changesSince({ plan, sandbox });
      if (mine !== generation) return;
      list = applyChangeDelta(null, full);
    }
    const lists = get().lists;
    // "Unchanged" keeps the same object, so nothing on the page renders again.
    if (list === lists[sandbox]) return;
    const next = { ...lists };
    if (list) next[sandbox] = list;
    else delete next[sandbox];
    set({ lists: next });
  };
  const enter = (planId: string): number => {
    if (get().planId !== planId) {
      generation++;
      set({ planId, lists: {}, error: null });
    }
    return generation;
  };
  return {
    planId: null,
    lists: {},
    error: null,
    load: async (planId, sandboxIds) => {
      const mine = enter(planId);
      const kept = Object.fromEntries(Object.entries(get().lists).filter(([id]) => sandboxIds.includes(id)));
      if (Object.keys(kept).length !== Object.keys(get().lists).length) set({ lists: kept });
      try {
        await Promise.all(sandboxIds.map((id) => refresh(planId, id, mine)));
        if (mine === generation && get().error !== null) set({ error: null });
      } catch (error) {
        if (mine === generation) set({ error });
      }
    },
    onVersion: async (planId, sandboxId, version) => {
      if (get().planId !== planId) return;
      const held = get().lists[sandboxId];
      if (held && version !== undefined && held.version === version) return;
      const mine = generation;
      try {
        await refresh(planId, sandboxId, mine);
      } catch (error) {
        if (mine === generation) set({ error });
      }
    },
  };
});

/** The lists of `sandboxIds` in that order (those held), the same array while nothing changed. */
export function listsOf(lists: Record<string, SandboxChangeList>, sandboxIds: readonly string[]): SandboxChangeList[] {
  return sandboxIds.flatMap((id) => (lists[id] ? [lists[id]] : []));
}
