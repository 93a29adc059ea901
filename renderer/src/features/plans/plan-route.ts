/**
 * Where in the plan screens the URL hash points: the list, one plan, or the review of one of its
 * sandboxes (optionally at a file). Kept in the hash so reload, back and links work.
 */

/** A place in the plan screens. */
export type PlansLocation =
  | { kind: 'list' }
  | { kind: 'plan'; planId: string }
  | { kind: 'review'; planId: string; sandboxId: string; path: string | null };

/** Reads `#/plans/<plan>/review/<sandbox>/<path...>` and its shorter forms. */
export function plansLocation(hash: string): PlansLocation {
  const parts = hash
    .replace(/^#\/?/, '')
    .split('?')[0]!
    .split('/')
    .map((part) => safeDecode(part));
  if (parts[0] !== 'plans' || !parts[1]) return { kind: 'list' };
  const planId = parts[1];
  if (parts[2] !== 'review' || !parts[3]) return { kind: 'plan', planId };
  const path = parts.slice(4).join('/');
  return { kind: 'review', planId, sandboxId: parts[3], path: path === '' ? null : path };
}

/** The hash of a place. */
export function plansHash(location: PlansLocation): string {
  if (location.kind === 'list') return '#/plans';
  const plan = `#/plans/${encodeURIComponent(location.planId)}`;
  if (location.kind === 'plan') return plan;
  const file = location.path ? `/${location.path.split('/').map(encodeURIComponent).join('/')}` : '';
  return `${plan}/review/${encodeURIComponent(location.sandboxId)}${file}`;
}

/** Goes to a place (adds a history entry, so Back returns). */
export function goTo(location: PlansLocation): void {
  const hash = plansHash(location);
  if (window.location.hash !== hash) window.location.hash = hash;
}

/** Replaces the current place without a history entry (selecting files while reviewing). */
export function replaceWith(location: PlansLocation): void {
  const hash = plansHash(location);
  if (window.location.hash === hash) return;
  window.history.replaceState(window.history.state, '', hash);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
