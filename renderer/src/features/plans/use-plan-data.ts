/**
 * The plan page's data, kept live without transfers while nothing changes (issue 22): the plan
 * view, and its live sandboxes' change lists through the versioned `changesSince`. A pushed
 * "files" event whose version the page holds asks nothing; a new version asks that sandbox's
 * delta; other sandbox events, and registry writes by another process (the CLI), reload the view
 * and the lists. Polls only while events are down.
 */
import { useCallback, useEffect, useMemo } from 'react';
import type { PlanView, SandboxChangeList, SandboxInfo } from '../../../../shared/dto.ts';
import { subscribe } from '../../api/index.ts';
import { listsOf, usePlanChanges } from '../../stores/plan-changes-store.ts';
import { usePlans } from '../../stores/plans-store.ts';
import { coalesce, useAdaptivePolling } from '../../stores/plans-sync.ts';

/** How long a burst of sandbox events is gathered before it is acted on. */
const BURST_MS = 250;
const NO_LISTS: Record<string, SandboxChangeList> = {};

/** True for a sandbox that has a change list (the host lists ready and committed ones). */
function live(sandbox: SandboxInfo): boolean {
  return sandbox.status === 'ready' || sandbox.status === 'committed';
}

/** True when a plan's sandboxes can be listed (provisioned, not failed). */
function listable(view: PlanView | null | undefined): view is PlanView {
  return view != null && view.plan.status !== 'provisioning' && view.plan.status !== 'failed';
}

/** The version of each sandbox's change list, by sandbox id, as a commit expects them. */
export function versionsOf(changes: SandboxChangeList[]): Record<string, string> {
  return Object.fromEntries(changes.map((c) => [c.sandboxId, c.version]));
}

/** What the plan page shows and how it reloads. */
export interface PlanData {
  view: PlanView | undefined;
  changes: SandboxChangeList[];
  changesError: unknown;
  /** The view, then the lists. */
  reload(): Promise<void>;
  /** The lists alone (after a commit or a discard). */
  loadChanges(): Promise<void>;
}

/** The plan page's data for `planId`. */
export function usePlanData(planId: string): PlanData {
  const view = usePlans((s) => s.views[planId]);
  const lists = usePlanChanges((s) => (s.planId === planId ? s.lists : NO_LISTS));
  const changesError = usePlanChanges((s) => (s.planId === planId ? s.error : null));
  const liveKey = view?.sandboxes.filter(live).map((s) => s.id).join('\n') ?? '';
  const changes = useMemo(() => listsOf(lists, liveKey ? liveKey.split('\n') : []), [lists, liveKey]);

  const loadChanges = useCallback(async () => {
    const current = usePlans.getState().views[planId];
    if (listable(current)) await usePlanChanges.getState().load(planId, current.sandboxes.filter(live).map((s) => s.id));
  }, [planId]);
  const reload = useCallback(async () => {
    if (listable(await usePlans.getState().loadPlan(planId))) await loadChanges();
  }, [planId, loadChanges]);

  useEffect(() => void reload(), [reload]);
  const provisioned = listable(view);
  // Once provisioned (the run may already be writing), the sandboxes' changes are counted at once.
  useEffect(() => {
    if (provisioned) void loadChanges();
  }, [provisioned, loadChanges]);

  useEffect(() => {
    if (!provisioned) return;
    // The newest pushed version per sandbox in a burst; undefined when one of its events carried none.
    const versions = new Map<string, string | undefined>();
    let whole = false;
    const flush = coalesce(() => {
      const pushed = [...versions];
      versions.clear();
      if (whole) {
        whole = false;
        void reload();
        return;
      }
      for (const [sandboxId, version] of pushed) void usePlanChanges.getState().onVersion(planId, sandboxId, version);
    }, BURST_MS);
    const stop = subscribe('sandboxChanged', (payload) => {
      if (payload.planId !== planId) return;
      if (payload.reason === 'files' && payload.sandboxId !== null) {
        const seen = versions.has(payload.sandboxId) && versions.get(payload.sandboxId) === undefined;
        versions.set(payload.sandboxId, seen ? undefined : payload.version);
      } else whole = true;
      flush();
    });
    // The CLI's commit, discard or restore from the trash is written by another process, which
    // sends this host no sandbox event: the registry's external change is the only word of it.
    const stopExternal = subscribe('registryChanged', (payload) => {
      if (payload.source === 'external') {
        whole = true;
        flush();
      }
    });
    return () => {
      stop();
      stopExternal();
    };
  }, [planId, provisioned, reload]);
  useAdaptivePolling(reload, 2500, provisioned);
  return { view, changes, changesError, reload, loadChanges };
}
