/**
 * Collects keys asked for one by one (each table row asks for its own folder status as it
 * scrolls into view) into one call per short burst, skips keys already on their way, and drops
 * answers that arrive after a reset (the user asked for fresh statuses meanwhile).
 */

/** What the batcher needs: the batched fetch, where answers go, and the burst window. */
export interface BatcherOptions<V> {
  fetch(keys: string[]): Promise<V[]>;
  deliver(values: V[]): void;
  delayMs: number;
}

/** Asks for keys and forgets the ones in flight. */
export interface Batcher {
  /** Queues keys that are not already queued or in flight. */
  request(keys: readonly string[]): void;
  /** Drops answers still on their way; later requests start afresh. */
  reset(): void;
}

/** A batcher over `options.fetch`; a failed fetch delivers nothing and frees its keys. */
export function createBatcher<V>(options: BatcherOptions<V>): Batcher {
  const inFlight = new Map<string, number>();
  const queued = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let epoch = 0;

  const flush = async () => {
    timer = null;
    const keys = [...queued];
    queued.clear();
    const mine = epoch;
    for (const key of keys) inFlight.set(key, mine);
    try {
      const values = await options.fetch(keys);
      if (mine === epoch) options.deliver(values);
    } catch {
      // The caller shows "checking" until it asks again; a failed batch is not worth a dialog.
    } finally {
      for (const key of keys) if (inFlight.get(key) === mine) inFlight.delete(key);
    }
  };

  return {
    request(keys) {
      for (const key of keys) if (!inFlight.has(key)) queued.add(key);
      if (queued.size > 0 && timer === null) timer = setTimeout(() => void flush(), options.delayMs);
    },
    reset() {
      epoch++;
      inFlight.clear();
    },
  };
}
