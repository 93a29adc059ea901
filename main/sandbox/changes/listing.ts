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
  /** The sandbox's watch epoch (listingEpoch) when the list began. */
  epoch: number;
}

/** Sandboxes whose last list is kept, at most (a server's reviews; the oldest is dropped). */
const KEPT = 64;

const listings = new Map<string, Listing>();

function keyOf(sandbox: SandboxInfo): string {
  return JSON.stringify([sandbox.path, sandbox.originalPath, sandbox.strategy, sandbox.access, sandbox.baseCommit ?? null]);
}

/** Keeps `changes` as the last list of `sandbox` (begun at watch epoch `epoch`), with the bases of `bases` at their paths. */
export function rememberListing(sandbox: SandboxInfo, version: string, changes: readonly VersionedChange[], bases: ReadonlyMap<string, BaseInfo>, epoch: number): void {
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
  listings.set(sandbox.id, { key: keyOf(sandbox), version, changes: byPath, bases: at, epoch });
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

/**
 * Per sandbox: how many file events its watchers saw (and watchers that became ready). A list
 * begun at the current epoch, under a ready watcher, has seen every change of the sandbox since.
 */
const epochs = new Map<string, number>();
const watching = new Map<string, number>();

/** The watch epoch of a sandbox, taken as a list begins. */
export function listingEpoch(sandboxId: string): number {
  return epochs.get(sandboxId) ?? 0;
}

/** A watcher saw a file event in the sandbox: lists begun before it may be out of date. */
export function noteSandboxEvent(sandboxId: string): void {
  epochs.set(sandboxId, listingEpoch(sandboxId) + 1);
}

/** A watcher of the sandbox is ready (events it missed while starting make earlier lists untrusted); returns the stop. */
export function watchReady(sandboxId: string): () => void {
  watching.set(sandboxId, (watching.get(sandboxId) ?? 0) + 1);
  noteSandboxEvent(sandboxId);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    const left = (watching.get(sandboxId) ?? 1) - 1;
    if (left > 0) watching.set(sandboxId, left);
    else watching.delete(sandboxId);
  };
}

/**
 * The last list of `sandbox` when it is known to be current: a watcher is running and saw no file
 * event since the list began. A commit may take it as the disk's list (without a watcher a file
 * could change unseen, and only listing again tells).
 */
export function currentListing(sandbox: SandboxInfo): Listing | undefined {
  const listing = listingOf(sandbox);
  return listing && watching.has(sandbox.id) && listing.epoch === listingEpoch(sandbox.id) ? listing : undefined;
}
