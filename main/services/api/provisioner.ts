/**
 * Provisioning in the background for the API: createPlan answers with the plan id as soon as the
 * plan exists (bindings resolved), while sandboxes are made; progress is kept for polling clients
 * and pushed as `progress` events; cancelPlan aborts it (the plan service removes what was made).
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
  // Starts run one at a time, so the first "provisioning" plan event after a start is its own.
  private starting: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly plans: PlanService,
    private readonly sink: ContractEventSink | undefined,
  ) {}

  /** Resolves the bindings and creates the plan; resolves with its id while provisioning goes on. */
  start(tool: string, project: string, params: BindingParams): Promise<PlanStarted> {
    const next = this.starting.catch(() => undefined).then(() => this.startOne(tool, project, params));
    this.starting = next;
    return next;
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

  private startOne(tool: string, project: string, params: BindingParams): Promise<PlanStarted> {
    const controller = new AbortController();
    let operation: Operation | null = null;
    return new Promise<PlanStarted>((resolve, reject) => {
      const unsubscribe = this.plans.onEvent((event) => {
        if (operation || event.type !== 'plan' || event.status !== 'provisioning') return;
        unsubscribe();
        const operationId = `plan:${event.planId}`;
        operation = {
          controller,
          state: { operationId, slotName: null, phase: 'starting', done: 0, total: null },
        };
        this.active.set(event.planId, operation);
        resolve({ planId: event.planId, operationId });
      });
      const created = this.plans.createPlan(tool, project, params, {
        signal: controller.signal,
        onProgress: (slotName, progress) => {
          if (!operation) return;
          operation.state = {
            ...operation.state,
            slotName,
            phase: progress.phase,
            done: progress.done,
            total: progress.total > 0 ? progress.total : null,
          };
          this.report(operation.state, `Provisioning ${slotName}: ${progress.phase}`, false);
        },
      });
      created.then(
        (detail) => {
          unsubscribe();
          if (operation) this.settle(detail.plan.id, 'Provisioned');
          else resolve({ planId: detail.plan.id, operationId: `plan:${detail.plan.id}` });
        },
        (error: unknown) => {
          unsubscribe();
          if (operation)
            this.settle(
              operation.state.operationId.slice('plan:'.length),
              controller.signal.aborted ? 'Cancelled' : 'Failed',
            );
          else reject(error);
        },
      );
    });
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
