/** Server-sent events: one stream per page, fed by the API runtime's event bus. */
import type { ServerResponse } from 'node:http';
import type { EventMessage } from '../../shared/events.ts';
import type { EventBus } from '../services/event-bus.ts';

const KEEP_ALIVE_MS = 15_000;

/** Formats one event in the SSE wire format. */
export function formatEvent(message: EventMessage): string {
  return `event: ${message.event}\ndata: ${JSON.stringify(message.payload)}\n\n`;
}

/** Turns `response` into an event stream until the client goes away. */
export function openEventStream(response: ServerResponse, bus: EventBus, headers: Record<string, string>): void {
  response.writeHead(200, {
    ...headers,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  response.write(': connected\n\n');
  const unsubscribe = bus.on((message) => response.write(formatEvent(message)));
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  response.on('close', () => {
    clearInterval(keepAlive);
    unsubscribe();
  });
}
