/** Fans the contract's events out to whichever host listens (IPC windows, SSE clients). */
import type { EventMessage, EventName, EventPayload } from '../../shared/events.ts';

/** A listener receives every event, as a name and payload pair. */
export type EventListener = (message: EventMessage) => void;

/** A tiny typed event bus; a throwing listener never stops the others. */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  /** Sends one event to every listener. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const message = { event, payload } as EventMessage;
    for (const listener of [...this.listeners]) {
      try {
        listener(message);
      } catch {
        // A broken connection must not keep the event from the others.
      }
    }
  }

  /** Adds a listener; returns the function that removes it. */
  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many listeners are attached (hosts use it to log and tests to check cleanup). */
  get size(): number {
    return this.listeners.size;
  }
}
