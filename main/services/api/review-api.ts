/**
 * The review methods of the API: change lists (and their live watch), one file's diff for the
 * viewer, commit (one sandbox or the plan), undo, discard with its counts confirmation, and the
 * trash. Outcomes come back as reports with sentences (plan-reports.ts).
 */
import type { ApiHandlers } from '../../../shared/contract.ts';
import type { HandlerSandbox } from '../../../shared/dto.ts';
import type { ContractEventSink } from '../plan-events.ts';
import type { PlanService } from '../plan-service.ts';
import { pickSandbox } from '../sandbox-ref.ts';
import { ChangeListHistory } from './change-history.ts';
import type { ApiContext } from './context.ts';
import { fileDiffView } from './file-diff-view.ts';
import { ReviewStateService } from '../review-state-service.ts';
import { runFileDiff } from './run-file-diff.ts';
import { commitReport, discardReport, sandboxInfo, undoReport } from './plan-reports.ts';
import type { WatchLeases } from './watch-leases.ts';

type ReviewMethods =
  | 'planChanges'
  | 'changesSince'
  | 'watchPlan'
  | 'fileDiff'
  | 'commitSandbox'
  | 'commitPlan'
  | 'undoCommit'
  | 'discardSandbox'
  | 'discardPlan'
  | 'listTrash'
  | 'restoreTrash'
  | 'purgeTrash';

/** The sandbox of a plan a reference names, by the one rule every host uses (services/sandbox-ref.ts): a tie is refused. */
export function findSandbox(plans: PlanService, sandboxes: HandlerSandbox[], planRef: string, ref: string): HandlerSandbox {
  return pickSandbox(plans.findPlan(planRef).id, sandboxes, ref);
}

/** Review: changes, watch, diff, commit, undo, discard, trash. */
export function reviewApi(
  context: ApiContext,
  leases: WatchLeases,
  sink: ContractEventSink | undefined,
): Pick<ApiHandlers, ReviewMethods> {
  const { plans, sandboxes } = context.bindery;
  const sandboxOf = (planRef: string, ref: string): HandlerSandbox =>
    findSandbox(plans, sandboxes.planSandboxes(plans.findPlan(planRef).id), planRef, ref);
  const names = (planId: string) =>
    new Map(sandboxes.planSandboxes(planId).map((s) => [s.id, s.resourceName]));
  const progress =
    (operationId: string, label: string) => (p: { phase: string; done: number; total: number }) =>
      sink?.emit('progress', {
        operationId,
        label: `${label}: ${p.phase}`,
        done: p.done,
        total: p.total > 0 ? p.total : null,
        finished: false,
      });
  const gitCommit = (message: string | undefined) => (message ? { message } : undefined);
  const history = new ChangeListHistory();
  const reviewState = new ReviewStateService(context.bindery);

  return {
    planChanges: async ({ plan, sandbox, scope }) => {
      const lists = await plans.changes(plan, sandbox === undefined ? undefined : sandboxOf(plan, sandbox).id);
      return scope ? Promise.all(lists.map((list) => reviewState.scopedList(list, scope))) : lists;
    },
    changesSince: async ({ plan, sandbox, since }) => {
      const target = sandboxOf(plan, sandbox);
      const [list] = await plans.changes(plan, target.id);
      if (!list) {
        history.forget(target.id);
        return { kind: 'full', list: null };
      }
      return history.answer(list, since);
    },
    watchPlan: ({ plan }) => leases.watch(plans.findPlan(plan).id),
    fileDiff: async ({ plan, sandbox, path, against, full, scope }) =>
      scope?.kind === 'run'
        ? runFileDiff(sandboxOf(plan, sandbox), reviewState.runPair(scope.runId, sandboxOf(plan, sandbox)), path, sandboxes.layout.tempDir, full)
        : fileDiffView(sandboxOf(plan, sandbox), { path, against, full }, sandboxes.layout.tempDir, sandboxes.ownCommits(sandboxOf(plan, sandbox).id)),
    commitSandbox: async ({ plan, sandbox, paths, resolutions, gitMessage, expectedVersion, selections }) => {
      const target = sandboxOf(plan, sandbox);
      const outcomes = await plans.commit(plan, {
        resource: target.id,
        paths,
        selections,
        resolutions,
        expectedVersion,
        gitCommit: gitCommit(gitMessage),
        onProgress: progress(`commit:${target.id}`, `Committing ${target.resourceName}`),
      });
      return outcomes.map((o) => commitReport(o, target.resourceName));
    },
    commitPlan: async ({ plan, resolutions, gitMessage, expectedVersions }) => {
      const planId = plans.findPlan(plan).id;
      const outcomes = await plans.commit(planId, {
        resolutions,
        expectedVersions,
        gitCommit: gitCommit(gitMessage),
        onProgress: progress(`commit:${planId}`, 'Committing the plan'),
      });
      const byId = names(planId);
      return outcomes.map((o) => commitReport(o, byId.get(o.sandboxId) ?? o.sandboxId));
    },
    undoCommit: async ({ plan, sandbox }) => {
      const target = sandboxOf(plan, sandbox);
      return undoReport(target.id, target.resourceName, await plans.undo(plan, target.id));
    },
    discardSandbox: async ({ plan, sandbox, confirm, force }) => {
      const target = sandboxOf(plan, sandbox);
      const outcomes = await plans.discard(plan, {
        resource: target.id,
        yes: confirm ?? false,
        force: force ?? false,
      });
      if (outcomes.some((o) => o.kind === 'discarded')) await leases.release(target.planId);
      return outcomes.map((o) => discardReport(o, names(target.planId)));
    },
    discardPlan: async ({ plan, confirm, force }) => {
      const planId = plans.findPlan(plan).id;
      const byId = names(planId);
      const outcomes = await plans.discard(planId, { yes: confirm ?? false, force: force ?? false });
      if (outcomes.some((o) => o.kind === 'discarded')) await leases.release(planId);
      return outcomes.map((o) => discardReport(o, byId));
    },
    listTrash: () => plans.listTrash(),
    restoreTrash: async ({ id }) => sandboxInfo(await plans.restoreTrash(id)),
    purgeTrash: ({ all }) => plans.purgeTrash({ all }),
  };
}
