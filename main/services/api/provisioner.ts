/**
 * Provisioning in the background for the API: createPlan answers with the plan id the plan service
 * returns as soon as the plan exists (bindings resolved), while sandboxes are made; progress is
 * kept for polling clients and pushed as `progress` events; cancelPlan aborts it (the plan
 * service removes what was made).
 */
import type { PlanStarted, ProvisionState } from '../../../shared/dto.ts';
import type { BindingParams } from '../../core/binding-resolution.ts';
import type { ContractEventSink } from '../plan-events.ts';
import type { PlanService } from '../plan-service.ts';

interface Operation {
  controller: AbortController;
  state: ProvisionState;
}

/** The provisioning operations of one API object. */
export class Provisioner {
  private readonly active = new Map<string, Operation>();

  constructor(
    private readonly plans: PlanService,
    private readonly sink: ContractEventSink | undefined,
  ) {}

  /**
   * Resolves the bindings and creates the plan; resolves with its id while provisioning goes on.
   * `afterProvisioned` runs once the sandboxes are made (the tool's run command, when asked for).
   */
  async start(tool: string, project: string, params: BindingParams, afterProvisioned?: (planId: string) => void): Promise<PlanStarted> {
    const controller = new AbortController();
    // Progress may come before the plan id is known here; it is kept and reported from then on.
    const operation: Operation = { controller, state: { operationId: '', slotName: null, phase: 'starting', done: 0, total: null } };
    const { planId, provisioned } = await this.plans.createPlan(tool, project, params, {
      signal: controller.signal,
      onProgress: (slotName, progress) => {
        operation.state = {
          ...operation.state,
          slotName,
          phase: progress.phase,
          done: progress.done,
          total: progress.total > 0 ? progress.total : null,
        };
        if (operation.state.operationId) this.report(operation.state, `Provisioning ${slotName}: ${progress.phase}`, false);
      },
    });
    operation.state = { ...operation.state, operationId: `plan:${planId}` };
    this.active.set(planId, operation);
    provisioned.then(
      () => {
        this.settle(planId, 'Provisioned');
        // Nobody awaits this chain: a throw here would be an unhandled rejection, which ends `serve`.
        try {
          afterProvisioned?.(planId);
        } catch {
          // The step reports its own failure (the run after provisioning logs it as activity).
        }
      },
      () => this.settle(planId, controller.signal.aborted ? 'Cancelled' : 'Failed'),
    );
    return { planId, operationId: operation.state.operationId };
  }

  /** Aborts a plan still provisioning; false when it is not (any more). */
  cancel(planId: string): boolean {
    const operation = this.active.get(planId);
    if (!operation) return false;
    operation.controller.abort();
    return true;
  }

  /** The progress of a plan still provisioning, or null. */
  progress(planId: string): ProvisionState | null {
    return this.active.get(planId)?.state ?? null;
  }

  /** Resolves when no provisioning is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.active.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  private settle(planId: string, label: string): void {
    const operation = this.active.get(planId);
    if (!operation) return;
    this.active.delete(planId);
    this.report(operation.state, label, true);
  }

  private report(state: ProvisionState, label: string, finished: boolean): void {
    this.sink?.emit('progress', {
      operationId: state.operationId,
      label,
      done: state.done,
      total: state.total,
      finished,
    });
  }
}
