/**
 * The last change list of each sandbox this process made, with what it was computed from: the
 * base at each changed path and how renames were paired. Opening one file then reads that file's
 * two sides against it, instead of listing and pairing the whole sandbox again.
 */
import type { SandboxInfo } from '../../../shared/dto.ts';
import type { BaseInfo } from './detect.ts';
import type { VersionedChange } from './version.ts';

/** One change list, by path. */
export interface Listing {
  /** What the list depends on besides the disk: a sandbox recreated at another base is another list. */
  key: string;
  version: string;
  /** Each change by its path, a rename also by its old path. */
  changes: Map<string, VersionedChange>;
  /** The base at each path of `changes`. */
  bases: Map<string, BaseInfo>;
}

/** Sandboxes whose last list is kept, at most (a server's reviews; the oldest is dropped). */
const KEPT = 64;

const listings = new Map<string, Listing>();

function keyOf(sandbox: SandboxInfo): string {
  return JSON.stringify([sandbox.path, sandbox.originalPath, sandbox.strategy, sandbox.access, sandbox.baseCommit ?? null]);
}

/** Keeps `changes` as the last list of `sandbox`, with the bases of `bases` at their paths. */
export function rememberListing(sandbox: SandboxInfo, version: string, changes: readonly VersionedChange[], bases: ReadonlyMap<string, BaseInfo>): void {
  const byPath = new Map<string, VersionedChange>();
  const at = new Map<string, BaseInfo>();
  for (const versioned of changes) {
    for (const rel of [versioned.change.path, versioned.change.oldPath]) {
      if (rel === null) continue;
      byPath.set(rel, versioned);
      at.set(rel, bases.get(rel) ?? null);
    }
  }
  listings.delete(sandbox.id);
  listings.set(sandbox.id, { key: keyOf(sandbox), version, changes: byPath, bases: at });
  if (listings.size > KEPT) listings.delete(listings.keys().next().value!);
}

/** The last list of `sandbox`, when it was made of the sandbox as it is recorded now. */
export function listingOf(sandbox: SandboxInfo): Listing | undefined {
  const listing = listings.get(sandbox.id);
  return listing?.key === keyOf(sandbox) ? listing : undefined;
}

/** Forgets the last list of a sandbox (discarded, or listed again). */
export function forgetListing(sandboxId: string): void {
  listings.delete(sandboxId);
}
