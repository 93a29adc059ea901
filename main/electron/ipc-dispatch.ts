/**
 * The IPC dispatch table: one channel per contract method plus the host-only channels, each
 * checking the sender first and answering with a result envelope. No Electron import, so it is
 * tested over fake events; main.ts only hands each entry to ipcMain.handle.
 */
import { methodChannel, HOST_CHANNELS } from '../../shared/bridge.ts';
import { METHOD_NAMES, type ApiResult } from '../../shared/contract.ts';
import type { Dispatch } from '../services/dispatch.ts';
import { isSafeExternalUrl } from './external-url.ts';
import { isTrustedSender, type IpcEventLike, type TrustPolicy } from './sender-check.ts';

/** A handler as ipcMain.handle calls it. */
export type IpcHandler = (event: IpcEventLike, input: unknown) => Promise<unknown>;

/** What the table needs from the host. */
export interface IpcDependencies {
  dispatch: Dispatch;
  policy: TrustPolicy;
  /** Shows the native folder picker for the sending window. */
  pickFolder(event: IpcEventLike): Promise<string | null>;
  /** Opens an already-checked https URL in the user's browser. */
  openExternal(url: string): Promise<void>;
  /** Records a refused call where a developer can see it. */
  onRefused?(channel: string, event: IpcEventLike): void;
}

/** The answer to a call from an untrusted sender. */
export const REFUSED: ApiResult = {
  ok: false,
  error: { code: 'usage', message: 'This call came from a page that is not Bindery’s own window and was refused.' },
};

/** Builds every channel's handler. */
export function ipcHandlers(deps: IpcDependencies): Map<string, IpcHandler> {
  const table = new Map<string, IpcHandler>();
  const guarded = (channel: string, handler: IpcHandler, refused: unknown): void => {
    table.set(channel, async (event, input) => {
      if (!isTrustedSender(event, deps.policy)) {
        deps.onRefused?.(channel, event);
        return refused;
      }
      return handler(event, input);
    });
  };
  for (const method of METHOD_NAMES) {
    guarded(methodChannel(method), (_event, input) => deps.dispatch(method, input), REFUSED);
  }
  guarded(HOST_CHANNELS.pickFolder, (event) => deps.pickFolder(event), null);
  guarded(
    HOST_CHANNELS.openExternal,
    async (_event, url) => {
      if (!isSafeExternalUrl(url)) return false;
      await deps.openExternal(url);
      return true;
    },
    false,
  );
  return table;
}
