/**
 * Holding the web host's answer to an API call (page.route), so a spec can look at the page while
 * a request is in flight and then say what happens to it. The web host only: Electron's calls
 * take no network.
 */
import type { Page, Route } from '@playwright/test';

/** Lets the held calls go: on to the host by default, or as `then` answers them. */
export type Release = (then?: (route: Route) => Promise<void>) => void;

/** Holds every call of `method` until released. */
export async function holdRequest(page: Page, method: string): Promise<Release> {
  let release: (then: (route: Route) => Promise<void>) => void = () => {};
  const released = new Promise<(route: Route) => Promise<void>>((resolve) => (release = resolve));
  await page.route(`**/api/${method}`, async (route) => (await released)(route));
  return (then = (route) => route.continue()) => release(then);
}

/** An answer in the host's shape: the call failed with `message`. */
export function failWith(message: string, code = 'conflict'): (route: Route) => Promise<void> {
  return (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify({ ok: false, error: { code, message } }) });
}

/** The refusal the dialog specs answer a held commit with. */
export const STALE_REVIEW = 'The original changed since the review was loaded: look at the review again.';
