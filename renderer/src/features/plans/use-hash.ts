/** The URL hash as React state, so screens follow Back, Forward, links and reloads. */
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** The current `window.location.hash`. */
export function useHash(): string {
  return useSyncExternalStore(subscribe, () => window.location.hash);
}
