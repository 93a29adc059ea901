/**
 * Runs highlighting in a small pool of module workers (one job per side of a file, in parallel),
 * falling back to the main thread, one job per task, where workers are unavailable or fail.
 */
import { highlightLines } from './highlight.ts';
import type { Language } from './languages.ts';
import type { TokenTable } from './token-table.ts';

/** A message to the worker: highlight a text, or forget a job that is no longer wanted. */
export type WorkerMessage =
  { type: 'highlight'; id: number; text: string; language: Language } | { type: 'cancel'; id: number };

/** The worker's answer: the packed tokens of every line, or null when the text was not highlighted. */
export interface WorkerReply {
  id: number;
  lines: TokenTable | null;
}

/** A running highlight: its result, and a way to say it is no longer needed. */
export interface HighlightJob {
  promise: Promise<TokenTable | null>;
  cancel: () => void;
}

const POOL_SIZE = 2;
const pool: Worker[] = [];
let workersBroken = typeof Worker === 'undefined';
let nextId = 1;
let nextWorker = 0;
const waiting = new Map<
  number,
  { resolve: (lines: TokenTable | null) => void; text: string; language: Language }
>();

/** Highlights `text` in the background; resolves with null if cancelled first or not highlightable. */
export function highlightInBackground(text: string, language: Language): HighlightJob {
  const id = nextId++;
  let settle: (lines: TokenTable | null) => void = () => {};
  const promise = new Promise<TokenTable | null>((resolve) => {
    settle = resolve;
  });
  const worker = workersBroken ? null : workerFor(id);
  if (worker) {
    waiting.set(id, { resolve: settle, text, language });
    worker.postMessage({ type: 'highlight', id, text, language } satisfies WorkerMessage);
    return {
      promise,
      cancel: () => {
        if (!waiting.delete(id)) return;
        worker.postMessage({ type: 'cancel', id } satisfies WorkerMessage);
        settle(null);
      },
    };
  }
  const timer = setTimeout(() => settle(highlightLines(text, language)), 0);
  return {
    promise,
    cancel: () => {
      clearTimeout(timer);
      settle(null);
    },
  };
}

function workerFor(id: number): Worker | null {
  try {
    if (pool.length < POOL_SIZE) {
      const worker = new Worker(new URL('./highlight-worker.ts', import.meta.url), {
        type: 'module',
        name: 'diff-highlight',
      });
      worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        const entry = waiting.get(event.data.id);
        if (!entry) return;
        waiting.delete(event.data.id);
        entry.resolve(event.data.lines);
      };
      worker.onerror = () => abandonWorkers();
      pool.push(worker);
    }
    return pool[(nextWorker++ + id) % pool.length] ?? null;
  } catch {
    abandonWorkers();
    return null;
  }
}

/** A worker failed to load (a CSP without worker-src, say): finish what was waiting on the main thread. */
function abandonWorkers(): void {
  workersBroken = true;
  for (const worker of pool.splice(0)) worker.terminate();
  const orphans = [...waiting.values()];
  waiting.clear();
  for (const job of orphans) setTimeout(() => job.resolve(highlightLines(job.text, job.language)), 0);
}
