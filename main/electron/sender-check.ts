/**
 * Who may call the API over IPC: only the app's own window, only its main frame, only while it
 * shows the app's own page (VS Code's validatedIpcMain, GitHub Desktop's trusted senders).
 * No Electron import: the checks work on the fields of an IPC event.
 */

/** The parts of an Electron IPC event the check reads. */
export interface IpcEventLike {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null | undefined;
}

/** What is trusted right now. */
export interface TrustPolicy {
  /** webContents ids of the app's own windows. */
  trustedIds: ReadonlySet<number>;
  /** True for a URL of the app's own page. */
  isAppUrl(url: string): boolean;
}

/** True when the event comes from a trusted window's main frame showing the app's page. */
export function isTrustedSender(event: IpcEventLike, policy: TrustPolicy): boolean {
  const frame = event.senderFrame;
  if (!frame) return false; // the frame navigated away or was destroyed
  if (!policy.trustedIds.has(event.sender.id)) return false;
  // Only the top frame has no parent; sub-frames (iframes) never talk to main. Frame wrapper
  // objects are not guaranteed to be identical across calls, so identity is not compared.
  if (frame.parent !== null) return false;
  return policy.isAppUrl(frame.url);
}

/** The app-page predicate for a renderer loaded from `indexUrl` (file:// in Electron). */
export function appUrlPredicate(indexUrl: string): (url: string) => boolean {
  const expected = new URL(indexUrl);
  return (url) => {
    let actual: URL;
    try {
      actual = new URL(url);
    } catch {
      return false;
    }
    return actual.protocol === expected.protocol && actual.host === expected.host && actual.pathname === expected.pathname;
  };
}
