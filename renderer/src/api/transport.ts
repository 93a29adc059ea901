/**
 * What the API client needs from a host connection: call a method, receive events, and the few
 * host-only abilities. Electron (preload) and the web host (HTTP + SSE) each provide one.
 */
import type { ApiResult, MethodName } from '../../../shared/contract.ts';
import type { EventHandler, EventName } from '../../../shared/events.ts';

/** Abilities that differ by host; screens ask for abilities, never for the host's kind. */
export interface HostAbilities {
  /** True when a native folder picker exists (Electron). */
  readonly canPickFolder: boolean;
  /** True when dropped folders carry a path the host can register (Electron). */
  readonly canDropFolders: boolean;
  /** Opens the native folder picker; null when cancelled or unavailable. */
  pickFolder(): Promise<string | null>;
  /** The path of a dropped file or folder, or null when the host cannot know it. */
  pathForFile(file: File): string | null;
  /** Opens an https link outside the app; false when refused. */
  openExternal(url: string): Promise<boolean>;
}

/**
 * Where the connection to the host stands: `connecting` before the first answer; `connected`;
 * `offline` (unreachable, retrying by itself); `refused` (it answers but no longer accepts this
 * page's token: it restarted without keeping it).
 */
export type ConnectionStatus = 'connecting' | 'connected' | 'offline' | 'refused';

/** One connection to a host. */
export interface Transport {
  call(method: MethodName, input: unknown): Promise<ApiResult>;
  subscribe<E extends EventName>(event: E, handler: EventHandler<E>): () => void;
  /**
   * Tells `listener` whether events arrive (now, then on every change); without it they always do
   * (Electron's IPC). Screens poll only while they do not.
   */
  onConnection?(listener: (up: boolean, status: ConnectionStatus) => void): () => void;
  /** Tries to reconnect now rather than at the next retry. */
  retryNow?(): void;
  readonly host: HostAbilities;
}
