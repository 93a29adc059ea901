/**
 * Maps plan and sandbox events to the contract's events (shared/events.ts), so a host forwards
 * provisioning progress and live sandbox changes to its windows with one call.
 */
import type { EventName, EventPayload } from '../../shared/events.ts';
import type { PlanEvent, PlanService } from './plan-service.ts';

/** Something that takes contract events (the EventBus). */
export interface ContractEventSink {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

/** The contract event for one plan event, or null when it has none. */
export function toContractEvent(event: PlanEvent): { event: 'progress'; payload: EventPayload<'progress'> } | { event: 'sandboxChanged'; payload: EventPayload<'sandboxChanged'> } {
  switch (event.type) {
    case 'progress':
      return {
        event: 'progress',
        payload: {
          operationId: `provision:${event.sandboxId}`,
          label: `Provisioning: ${event.phase}`,
          done: event.done,
          total: event.total > 0 ? event.total : null,
          finished: event.phase === 'finishing' && event.done >= event.total,
        },
      };
    case 'status':
      return { event: 'sandboxChanged', payload: { planId: event.planId, sandboxId: event.sandboxId, reason: `status:${event.status}` } };
    case 'changes':
      return { event: 'sandboxChanged', payload: { planId: event.planId, sandboxId: event.sandboxId, reason: 'files', version: event.changes.version } };
    case 'recovered':
      return { event: 'sandboxChanged', payload: { planId: event.planId, sandboxId: event.sandboxId, reason: 'recovered' } };
    case 'plan':
      return { event: 'sandboxChanged', payload: { planId: event.planId, sandboxId: null, reason: `plan:${event.status}` } };
  }
}

/** Forwards every plan event to the sink; returns the function that stops it. */
export function forwardPlanEvents(plans: PlanService, sink: ContractEventSink): () => void {
  return plans.onEvent((event) => {
    const message = toContractEvent(event);
    sink.emit(message.event, message.payload);
  });
}
