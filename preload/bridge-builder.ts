/**
 * Builds the object the preload exposes as `window.bindery`: one named function per contract
 * method and per event, derived from the contract's lists, plus the host abilities. It checks
 * nothing (main checks the sender) and exposes no generic invoke. No Electron import: the preload
 * passes ipcRenderer's functions in, and tests pass fakes.
 */
import { eventChannel, HOST_CHANNELS, methodChannel, subscriberName, type PreloadBridge } from '../shared/bridge.ts';
import { METHOD_NAMES } from '../shared/contract.ts';
import { EVENT_NAMES } from '../shared/events.ts';

/** The pieces of ipcRenderer and webUtils the bridge uses. */
export interface BridgeDependencies {
  invoke(channel: string, input?: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): void;
  off(channel: string, listener: (event: unknown, payload: unknown) => void): void;
  getPathForFile(file: File): string;
}

/** The bridge over the given IPC functions. */
export function buildBridge(deps: BridgeDependencies): PreloadBridge {
  const bridge: Record<string, unknown> = {};
  for (const method of METHOD_NAMES) {
    const channel = methodChannel(method);
    bridge[method] = (input?: unknown) => deps.invoke(channel, input ?? {});
  }
  for (const event of EVENT_NAMES) {
    const channel = eventChannel(event);
    bridge[subscriberName(event)] = (handler: (payload: unknown) => void) => {
      // The IPC event object stays here: the page gets the payload only.
      const listener = (_event: unknown, payload: unknown) => handler(payload);
      deps.on(channel, listener);
      return () => deps.off(channel, listener);
    };
  }
  bridge.host = {
    pickFolder: () => deps.invoke(HOST_CHANNELS.pickFolder),
    openExternal: (url: string) => deps.invoke(HOST_CHANNELS.openExternal, url),
    getPathForFile: (file: File) => deps.getPathForFile(file) || null,
  };
  return bridge as unknown as PreloadBridge;
}
