/**
 * The renderer's one door to Bindery: a typed `api`, `subscribe(event, handler)` and the host's
 * abilities. Picks the preload bridge in Electron and HTTP + SSE under `bindery serve` at start;
 * nothing else in the renderer knows which.
 */
import { BRIDGE_KEY, type PreloadBridge } from '../../../shared/bridge.ts';
import type { BinderyApi } from '../../../shared/contract.ts';
import type { EventHandler, EventName } from '../../../shared/events.ts';
import { createApi } from './client.ts';
import { HttpTransport } from './http-transport.ts';
import { IpcTransport } from './ipc-transport.ts';
import { takeToken } from './token.ts';
import type { ConnectionStatus, HostAbilities, Transport } from './transport.ts';

function chooseTransport(): Transport {
  const bridge = (window as unknown as Record<string, unknown>)[BRIDGE_KEY] as PreloadBridge | undefined;
  if (bridge) return new IpcTransport(bridge);
  const token = takeToken({
    href: window.location.href,
    storage: window.sessionStorage,
    replaceUrl: (url) => window.history.replaceState(window.history.state, '', url),
  });
  return new HttpTransport({
    baseUrl: new URL('./', window.location.href).href,
    token,
    openWindow: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
  });
}

const transport = chooseTransport();

/** The typed API: one async function per contract method; failures throw typed BinderyErrors. */
export const api: BinderyApi = createApi(transport);

/** Subscribes to an event from main; returns the unsubscribe function. */
export function subscribe<E extends EventName>(event: E, handler: EventHandler<E>): () => void {
  return transport.subscribe(event, handler);
}

/** Tells `listener` whether pushed events arrive, and the connection's status (now and on each change); always up in Electron. */
export function onConnection(listener: (up: boolean, status: ConnectionStatus) => void): () => void {
  if (transport.onConnection) return transport.onConnection(listener);
  listener(true, 'connected');
  return () => undefined;
}

/** Tries to reconnect to the host now rather than at the next retry. */
export function retryConnection(): void {
  transport.retryNow?.();
}

/** What this host can do beyond the API (native folder picker, dropped-folder paths, links). */
export const host: HostAbilities = transport.host;

export type { ConnectionStatus, HostAbilities } from './transport.ts';
export type { BinderyApi, MethodInput, MethodOutput, MethodName } from '../../../shared/contract.ts';
export type { EventName, EventPayload } from '../../../shared/events.ts';
