/**
 * Loading state shared by the list stores: the last good list stays on screen while a refresh
 * runs, and a slower, older answer never overwrites a newer one (events can trigger refreshes
 * back to back).
 */

/** Where a list stands. */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The fields every list store has. */
export interface Loadable<T> {
  items: T[];
  status: LoadStatus;
  error: unknown;
}

/** An empty, not yet loaded list. */
export function emptyLoadable<T>(): Loadable<T> {
  return { items: [], status: 'idle', error: null };
}

/** A refresh function that fetches and stores the list, keeping only the latest answer. */
export function latestLoader<T>(fetch: () => Promise<T[]>, set: (patch: Partial<Loadable<T>>) => void): () => Promise<void> {
  let generation = 0;
  return async () => {
    const mine = ++generation;
    set({ status: 'loading' });
    try {
      const items = await fetch();
      if (mine === generation) set({ items, status: 'ready', error: null });
    } catch (error) {
      if (mine === generation) set({ status: 'error', error });
    }
  };
}
