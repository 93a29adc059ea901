/** The engine's one concurrency pool: file work in parallel enough to hide latency, bounded for memory and handles. */

/** Files worked on at once by default: enough to overlap fsyncs, few enough for file handles. */
export const DEFAULT_CONCURRENCY = 16;

/** What a worker returns to stop new items from starting (items in flight still finish). */
export const STOP = Symbol('stop');

/**
 * Runs `work` over `items` with at most `limit` at once. After a STOP or an error no new item
 * starts; in-flight ones finish; the first error is rethrown. Resolves true when stopped early.
 */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void | typeof STOP>,
): Promise<boolean> {
  let next = 0;
  let stopped = false;
  let failed = false;
  let failure: unknown;
  const runner = async (): Promise<void> => {
    while (!stopped && next < items.length) {
      const index = next++;
      try {
        if ((await work(items[index]!, index)) === STOP) stopped = true;
      } catch (error) {
        stopped = true;
        if (!failed) [failed, failure] = [true, error];
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, runner));
  if (failed) throw failure;
  return stopped;
}
