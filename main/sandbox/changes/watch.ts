/**
 * Live change lists (DESIGN 2.2): chokidar watches a sandbox folder, and in the original the
 * paths the list holds (an edit there turns a change into a conflict); a moment after the last
 * event of a burst, the change list is computed again and reported.
 */
import path from 'node:path';
import { watch } from 'chokidar';
import { hasEscapes } from '../fs/index.ts';
import type { SandboxChangeList, SandboxInfo } from '../../../shared/dto.ts';
import { noteSandboxEvent, watchReady } from './listing.ts';

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
      if (!stopped) {
        followOriginals(changes);
        report(changes);
      }
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
  // The original's side of each listed path, so a person's edit there shows as a conflict at once.
  const originals = watch([], { ignoreInitial: true, persistent: true });
  let followed = new Set<string>();
  const followOriginals = (changes: SandboxChangeList): void => {
    const wanted = new Set<string>();
    for (const change of changes.changes) {
      for (const rel of [change.path, change.oldPath]) if (rel && !hasEscapes(rel)) wanted.add(path.join(sandbox.originalPath, rel));
    }
    const added = [...wanted].filter((file) => !followed.has(file));
    const dropped = [...followed].filter((file) => !wanted.has(file));
    if (added.length > 0) originals.add(added);
    if (dropped.length > 0) originals.unwatch(dropped);
    followed = wanted;
  };
  originals.on('all', () => {
    noteSandboxEvent(sandbox.id);
    schedule();
  });
  originals.on('error', onError);
  let unwatch = (): void => undefined;
  watcher.on('ready', () => {
    if (stopped) return;
    unwatch = watchReady(sandbox.id);
    // Listed once when ready: a list made while the watcher started may have missed an edit, and
    // the original's paths to follow come from the list.
    schedule();
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
    await Promise.all([watcher.close(), originals.close()]);
  };
}
