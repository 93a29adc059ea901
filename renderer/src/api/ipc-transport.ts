/**
 * The Electron transport: the preload's `window.bindery` object. It already has one function per
 * method and per event; this adapter only gives it the Transport shape.
 */
import { subscriberName, type PreloadBridge } from '../../../shared/bridge.ts';
import type { ApiResult, MethodName } from '../../../shared/contract.ts';
import type { EventHandler, EventName } from '../../../shared/events.ts';
import type { HostAbilities, Transport } from './transport.ts';

/** Wraps the preload bridge. */
export class IpcTransport implements Transport {
  readonly host: HostAbilities;

  constructor(private readonly bridge: PreloadBridge) {
    this.host = {
      canPickFolder: true,
      canDropFolders: true,
      pickFolder: () => bridge.host.pickFolder(),
      pathForFile: (file) => bridge.host.getPathForFile(file) || null,
      openExternal: (url) => bridge.host.openExternal(url),
    };
  }

  call(method: MethodName, input: unknown): Promise<ApiResult> {
    const fn = this.bridge[method] as (input: unknown) => Promise<ApiResult>;
    return fn(input);
  }

  subscribe<E extends EventName>(event: E, handler: EventHandler<E>): () => void {
    const on = this.bridge[subscriberName(event)] as (handler: EventHandler<E>) => () => void;
    return on(handler);
  }
}
