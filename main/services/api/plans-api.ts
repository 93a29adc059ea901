/**
 * The plan methods of the API (issue 6): create (provisioning in the background), cancel, list,
 * show, run the tool, activity and "open folder"; the review methods come from review-api.ts.
 * Events go to the host's sink when the context carries one (`events`).
 */
import type { ApiHandlers } from '../../../shared/contract.ts';
import { BinderyError, NotFoundError } from '../../../shared/errors.ts';
import { toContractEvent } from '../plan-events.ts';
import { runServiceFor } from '../run-service.ts';
import type { ApiContext } from './context.ts';
import { planView } from './plan-reports.ts';
import { Provisioner } from './provisioner.ts';
import { openFolder } from './reveal-folder.ts';
import { mergeApi } from './merge-api.ts';
import { findSandbox, reviewApi } from './review-api.ts';
import { WatchLeases } from './watch-leases.ts';

type PlanMethods =
  | 'createPlan'
  | 'cancelPlan'
  | 'listPlans'
  | 'showPlan'
  | 'runTool'
  | 'stopRun'
  | 'showRun'
  | 'activity'
  | 'revealSandbox';
type ReviewMethods = keyof ReturnType<typeof reviewApi> | keyof ReturnType<typeof mergeApi>;

/** The context plus the host's event sink, when the host passes one. */
export type PlansApiContext = ApiContext & {
  openFolder?: (folder: string) => Promise<boolean>;
};

/** Plans, review and runs. */
export function plansApi(context: PlansApiContext): Pick<ApiHandlers, PlanMethods | ReviewMethods> {
  const { bindery, events: sink } = context;
  const { plans, registry } = bindery;
  const provisioner = new Provisioner(plans, sink);
  const runs = runServiceFor(bindery);
  const leases = new WatchLeases(plans);
  if (sink) {
    // Provisioning progress is reported per plan by the provisioner; the rest is forwarded as is.
    plans.onEvent((event) => {
      if (event.type === 'progress') return;
      const message = toContractEvent(event);
      sink.emit(message.event, message.payload);
    });
    runs.onEvent((event) =>
      event.type === 'output'
        ? sink.emit('runOutput', { runId: event.runId, planId: event.planId, ...event.chunk })
        : sink.emit('runChanged', { runId: event.runId, planId: event.planId, status: event.status }),
    );
  }
  const toolRun = (toolId: string): string | null => {
    try {
      return registry.showTool(toolId).run;
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  };

  return {
    // With run, the tool's command starts once the sandboxes are made (the inspector's "Provision and run").
    createPlan: ({ tool, project, params, run }) =>
      provisioner.start(tool, project, params ?? {}, run ? (planId) => runs.startIfRunnable(planId) : undefined),
    cancelPlan: ({ plan }) => ({ cancelled: provisioner.cancel(plans.findPlan(plan).id) }),
    listPlans: ({ status, tool, project, limit }) => {
      const all = plans.listPlans({ status });
      const matches = (value: string | undefined, name: string, id: string) =>
        value === undefined || value === '' || value === name || value === id;
      return all
        .filter((p) => matches(tool, p.toolName, p.toolId) && matches(project, p.projectName, p.projectId))
        .slice(0, limit ?? all.length);
    },
    showPlan: ({ plan }) => {
      const detail = plans.showPlan(plan);
      const id = detail.plan.id;
      return planView(detail, {
        toolRun: toolRun(detail.plan.toolId),
        provisioning: provisioner.progress(id),
        lastRun: runs.latest(id),
      });
    },
    runTool: ({ plan, timeoutSeconds }) =>
      runs.start(plan, { timeoutMs: timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000 }),
    stopRun: ({ runId }) => runs.stop(runId),
    showRun: ({ runId, afterSeq }) => runs.show(runId, afterSeq),
    activity: ({ plan, limit }) =>
      plans.activity({ planId: plan === undefined ? undefined : plans.findPlan(plan).id, limit }),
    revealSandbox: async ({ plan, sandbox }) => {
      if (context.host !== 'electron') {
        throw new BinderyError(
          'usage',
          'Opening folders works in the desktop app only: the web host may serve a browser on another machine. Copy the path instead.',
        );
      }
      const target = findSandbox(
        plans,
        bindery.sandboxes.planSandboxes(plans.findPlan(plan).id),
        plan,
        sandbox,
      );
      return { opened: await (context.openFolder ?? openFolder)(target.path) };
    },
    ...whileIdle(reviewApi(context, leases, sink), (planRef, doing) => runs.assertIdle(plans.findPlan(planRef).id, doing)),
    ...mergeApi(context),
  };
}

/**
 * Commit and discard refused while the tool's command runs in the plan: what it writes after the
 * check would be left out of a commit, or lost with a discarded sandbox.
 */
function whileIdle<T extends Pick<ApiHandlers, 'commitSandbox' | 'commitPlan' | 'discardSandbox' | 'discardPlan'>>(
  review: T,
  assertIdle: (planRef: string, doing: string) => void,
): T {
  return {
    ...review,
    commitSandbox: (input) => (assertIdle(input.plan, 'committing'), review.commitSandbox(input)),
    commitPlan: (input) => (assertIdle(input.plan, 'committing'), review.commitPlan(input)),
    discardSandbox: (input) => (assertIdle(input.plan, 'discarding'), review.discardSandbox(input)),
    discardPlan: (input) => (assertIdle(input.plan, 'discarding'), review.discardPlan(input)),
  };
}
