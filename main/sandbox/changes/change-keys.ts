/**
 * The key of each change in a sandbox's last change list (issue 23): what a "viewed" mark
 * remembers. It is made of the content ids the list's version is built from (version.ts), so a
 * file that changes again after it was marked gets another key, at no cost beyond the list.
 */
import { createHash } from 'node:crypto';
import type { SandboxInfo } from '../../../shared/dto.ts';
import { listingOf } from './listing.ts';

/**
 * Each changed path of the sandbox's last list with its change key, or undefined when this process
 * has not listed the sandbox as it is recorded now (list it first). Drift is left out: the
 * original changing does not change what the reviewer saw of the sandbox.
 */
export function changeKeys(sandbox: SandboxInfo): Map<string, string> | undefined {
  const listing = listingOf(sandbox);
  if (!listing) return undefined;
  const keys = new Map<string, string>();
  for (const [rel, { change, ids }] of listing.changes) {
    if (rel !== change.path) continue;
    const line = JSON.stringify([change.kind, change.oldPath, change.newType, change.newMode, ids]);
    keys.set(rel, createHash('sha256').update(line).digest('hex').slice(0, 24));
  }
  return keys;
}
