/**
 * The shape of what the Electron preload exposes to the renderer, and the IPC channel names.
 * One named function per contract method (no generic invoke) plus named event subscriptions and
 * the few host-only abilities (native folder picker, dropped-file paths, external links).
 */
import type { ApiResult, MethodInput, MethodName, MethodOutput } from './contract.ts';
import type { EventHandler, EventName } from './events.ts';

/** The global the preload defines in the renderer's main world: `window.bindery`. */
export const BRIDGE_KEY = 'bindery';

/** The IPC channel of a contract method. */
export function methodChannel(method: MethodName): string {
  return `bindery:${method}`;
}

/** The IPC channel main sends one kind of event on. */
export function eventChannel(event: EventName): string {
  return `bindery:event:${event}`;
}

/** Host-only abilities, each on its own channel. */
export const HOST_CHANNELS = {
  pickFolder: 'bindery:host:pickFolder',
  openExternal: 'bindery:host:openExternal',
} as const;

/** The preload's name for an event subscription, e.g. `onRegistryChanged`. */
export function subscriberName<E extends EventName>(event: E): `on${Capitalize<E>}` {
  return `on${event.charAt(0).toUpperCase()}${event.slice(1)}` as `on${Capitalize<E>}`;
}

/** Contract methods as the preload exposes them: results come back as envelopes. */
export type BridgeMethods = { [M in MethodName]: (input?: MethodInput<M>) => Promise<ApiResult<MethodOutput<M>>> };

/** Event subscriptions as the preload exposes them; each returns its unsubscribe function. */
export type BridgeEvents = { [E in EventName as `on${Capitalize<E>}`]: (handler: EventHandler<E>) => () => void };

/** Host-only abilities of the Electron window. */
export interface BridgeHost {
  /** Opens the native folder picker; null when cancelled. */
  pickFolder(): Promise<string | null>;
  /** The path of a file or folder dropped on the window, or null when it has none. */
  getPathForFile(file: File): string | null;
  /** Opens an https link in the user's browser; other schemes are refused by main. */
  openExternal(url: string): Promise<boolean>;
}

/** Everything `window.bindery` holds in Electron. */
export type PreloadBridge = BridgeMethods & BridgeEvents & { host: BridgeHost };
