/**
 * Live change lists (DESIGN 2.2): chokidar watches a sandbox folder and, a moment after the
 * last event of a burst, the change list is computed again and reported.
 */
import { watch } from 'chokidar';
import type { SandboxChangeList, SandboxInfo } from '../../../shared/dto.ts';

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
  watcher.on('all', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), SETTLE_MS);
  });
  watcher.on('error', onError);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await watcher.close();
  };
}
