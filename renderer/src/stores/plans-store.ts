/**
 * Plans: the filtered list, each opened plan's view (sandboxes, history, commits, progress, last
 * run), and the actions of the plan page. Live updates arrive through plans-sync.ts.
 */
import { create } from 'zustand';
import type {
  CommitReport,
  DiscardReport,
  PlanInfo,
  PlanStatusValue,
  PlanView,
  ProvisionState,
} from '../../../shared/dto.ts';
import { api } from '../api/index.ts';
import { emptyLoadable, latestLoader, type Loadable } from './loadable.ts';

/** The list's filters; empty strings mean "any". */
export interface PlanFilters {
  status: PlanStatusValue | '';
  tool: string;
  project: string;
}

/** The plans list, opened plans and their actions. */
export interface PlansState extends Loadable<PlanInfo> {
  filters: PlanFilters;
  views: Record<string, PlanView>;
  viewErrors: Record<string, unknown>;
  /** Live provisioning progress from events (the view's `provisioning` is the polled copy). */
  progress: Record<string, ProvisionState>;
  refresh(): Promise<void>;
  setFilters(patch: Partial<PlanFilters>): void;
  loadPlan(planId: string): Promise<PlanView | null>;
  /** Starts a plan; with `run`, the tool's run command starts once provisioning succeeds. */
  create(tool: string, project: string, params: Record<string, string>, run?: boolean): Promise<string>;
  cancel(planId: string): Promise<boolean>;
  /** Commits every sandbox of a plan; `expectedVersions` (sandbox id -> version) are the change lists on screen. */
  commitAll(
    planId: string,
    options?: { gitMessage?: string; expectedVersions?: Record<string, string> },
  ): Promise<CommitReport[]>;
  discardAll(planId: string, options: { confirm: boolean; force?: boolean }): Promise<DiscardReport[]>;
  setProgress(planId: string, progress: ProvisionState | null): void;
}

/** The one store of plans. */
export const usePlans = create<PlansState>()((set, get) => {
  const generations = new Map<string, number>();
  const afterChange = async (planId: string) => {
    await Promise.all([get().loadPlan(planId), get().refresh()]);
  };
  return {
    ...emptyLoadable<PlanInfo>(),
    filters: { status: '', tool: '', project: '' },
    views: {},
    viewErrors: {},
    progress: {},
    refresh: latestLoader(() => {
      const { status, tool, project } = get().filters;
      return api.listPlans({
        status: status || undefined,
        tool: tool || undefined,
        project: project || undefined,
      });
    }, set),
    setFilters: (patch) => {
      set({ filters: { ...get().filters, ...patch } });
      void get().refresh();
    },
    loadPlan: async (planId) => {
      const mine = (generations.get(planId) ?? 0) + 1;
      generations.set(planId, mine);
      try {
        const view = await api.showPlan({ plan: planId });
        if (generations.get(planId) === mine)
          set({ views: { ...get().views, [planId]: view }, viewErrors: without(get().viewErrors, planId) });
        return view;
      } catch (error) {
        if (generations.get(planId) === mine) set({ viewErrors: { ...get().viewErrors, [planId]: error } });
        return null;
      }
    },
    create: async (tool, project, params, run) => {
      const started = await api.createPlan({ tool, project, params, ...(run ? { run } : {}) });
      await afterChange(started.planId);
      return started.planId;
    },
    cancel: async (planId) => {
      const { cancelled } = await api.cancelPlan({ plan: planId });
      await afterChange(planId);
      return cancelled;
    },
    commitAll: async (planId, options = {}) => {
      try {
        return await api.commitPlan({
          plan: planId,
          gitMessage: options.gitMessage,
          expectedVersions: options.expectedVersions,
        });
      } finally {
        await afterChange(planId);
      }
    },
    discardAll: async (planId, options) => {
      try {
        return await api.discardPlan({ plan: planId, confirm: options.confirm, force: options.force });
      } finally {
        await afterChange(planId);
      }
    },
    setProgress: (planId, progress) =>
      set({
        progress: progress ? { ...get().progress, [planId]: progress } : without(get().progress, planId),
      }),
  };
});

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
}
