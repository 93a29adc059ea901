/**
 * Live change lists (DESIGN 2.2): chokidar watches a sandbox folder and, a moment after the
 * last event of a burst, the change list is computed again and reported.
 */
import { watch } from 'chokidar';
import type { SandboxChangeList, SandboxInfo } from '../../../shared/dto.ts';
import { listingOf, noteSandboxEvent, watchReady } from './listing.ts';

/** How long a burst of file events settles before the change list is recomputed. */
export const SETTLE_MS = 150;

/** Watches `sandbox` and calls `report` with fresh changes after each burst; returns the stop function. */
export function watchSandbox(
  sandbox: SandboxInfo,
  detect: () => Promise<SandboxChangeList>,
  report: (changes: SandboxChangeList) => void,
  onError: (error: unknown) => void = () => undefined,
): () => Promise<void> {
  const watcher = watch(sandbox.path, {
    ignoreInitial: true,
    ignored: (file: string) => /[/\\]\.git([/\\]|$)/.test(file.slice(sandbox.path.length)),
    persistent: true,
  });
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const changes = await detect();
      if (!stopped) report(changes);
    } catch (error) {
      if (!stopped) onError(error);
    } finally {
      running = false;
      if (again && !stopped) {
        again = false;
        void run();
      }
    }
  };
  const schedule = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), SETTLE_MS);
  };
  let unwatch = (): void => undefined;
  watcher.on('ready', () => {
    if (stopped) return;
    unwatch = watchReady(sandbox.id);
    // A list made while the watcher started may have missed an edit: listed again, it is current.
    if (listingOf(sandbox)) schedule();
  });
  watcher.on('all', () => {
    noteSandboxEvent(sandbox.id);
    schedule();
  });
  watcher.on('error', onError);
  return async () => {
    stopped = true;
    unwatch();
    clearTimeout(timer);
    await watcher.close();
  };
}
