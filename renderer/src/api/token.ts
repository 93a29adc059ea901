/**
 * The web host's per-start token: arrives once in the printed URL (`?token=...`), is kept in
 * sessionStorage for reloads, and is removed from the visible URL so it is not shared by accident.
 */

/** The token query parameter and the header the API expects it in. */
export const TOKEN_PARAM = 'token';
export const TOKEN_HEADER = 'X-Bindery-Token';
const STORAGE_KEY = 'bindery.token';

/** The pieces of the browser the token needs, injectable for tests. */
export interface TokenEnvironment {
  href: string;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  replaceUrl(url: string): void;
}

/** Takes the token from the URL (then hides it) or from session storage; null when absent. */
export function takeToken(env: TokenEnvironment): string | null {
  const url = new URL(env.href);
  const fromUrl = url.searchParams.get(TOKEN_PARAM);
  if (fromUrl) {
    env.storage.setItem(STORAGE_KEY, fromUrl);
    url.searchParams.delete(TOKEN_PARAM);
    env.replaceUrl(url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return env.storage.getItem(STORAGE_KEY);
}
