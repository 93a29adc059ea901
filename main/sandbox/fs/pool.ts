/**
 * The engine's one concurrency pool: file work in parallel enough to hide latency, bounded for
 * memory and handles; and the one rule that splits weighted work over parallel processes.
 */

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

/**
 * Spreads weighted units over at most `count` groups, heaviest first onto the lightest group, so
 * parallel workers (find processes, cp processes) finish at about the same time.
 */
export function balance(units: ReadonlyArray<{ name: string; weight: number }>, count: number): string[][] {
  const groups = Array.from({ length: Math.min(count, units.length) }, () => ({ names: [] as string[], weight: 0 }));
  for (const unit of [...units].sort((a, b) => b.weight - a.weight)) {
    const lightest = groups.reduce((best, group) => (group.weight < best.weight ? group : best));
    lightest.names.push(unit.name);
    lightest.weight += unit.weight;
  }
  return groups.map((group) => group.names);
}
