/**
 * The changes a commit of chosen paths works from, taken from the sandbox's last change list
 * (listing.ts) when that is the list the person reviewed and a watcher vouches it is current:
 * only the chosen paths' two sides are read again (a rename's four), so committing N files costs
 * in proportion to N, not to the sandbox.
 */
import type { SandboxInfo } from '../../../shared/dto.ts';
import { readStates, type BaseInfo, type InspectedChange, type OwnCommits } from './detect.ts';
import { describe } from './describe.ts';
import { currentListing } from './listing.ts';
import { renameChange } from './renames.ts';
import { sideIds, versionLine, type VersionedChange } from './version.ts';

/** The chosen changes as read now, and how many other changes of the list are not applied yet. */
export interface SelectedChanges {
  inspected: InspectedChange[];
  othersLeft: number;
}

/**
 * The changes `paths` name (a path, or a folder ending in `/`), read now, when the current list
 * of `sandbox` (currentListing) has version `expectedVersion`, names every path, and each chosen change reads now as
 * the list had it (same kind, drift and content ids); null otherwise, and the caller lists the
 * whole sandbox (which refuses a list that moved since the review).
 */
export async function inspectSelected(sandbox: SandboxInfo, expectedVersion: string, paths: readonly string[], ownCommits?: OwnCommits): Promise<SelectedChanges | null> {
  const listing = currentListing(sandbox);
  if (!listing || listing.version !== expectedVersion) return null;
  const chosen = new Set<VersionedChange>();
  for (const wanted of paths) {
    const hits = wanted.endsWith('/') ? [...listing.changes].filter(([rel]) => rel.startsWith(wanted)).map(([, v]) => v) : [listing.changes.get(wanted)];
    if (hits.length === 0 || hits[0] === undefined) return null;
    for (const hit of hits) chosen.add(hit!);
  }
  const rels = [...chosen].flatMap(({ change }) => (change.kind === 'renamed' && change.oldPath !== null ? [change.path, change.oldPath] : [change.path]));
  const bases = new Map<string, BaseInfo>(rels.map((rel) => [rel, listing.bases.get(rel) ?? null]));
  // Learned base hashes are left for the next full list: writing them rewrites the whole manifest.
  const states = new Map((await readStates(sandbox, bases, undefined, ownCommits, new Map())).map((state) => [state.rel, state]));
  const inspected: InspectedChange[] = [];
  for (const listed of chosen) {
    const now = again(listed, states, sandbox);
    if (!now || versionLine({ change: now.change, ids: now.ids }) !== versionLine(listed)) return null;
    inspected.push({ change: now.change, target: now.target, source: now.source });
  }
  const others = new Set([...listing.changes.values()].filter((v) => !chosen.has(v) && v.change.drift !== 'applied'));
  return { inspected: inspected.sort((a, b) => (a.change.path < b.change.path ? -1 : a.change.path > b.change.path ? 1 : 0)), othersLeft: others.size };
}

/** One listed change as the disk has it now, with its content ids; null when it is no longer that kind of change. */
function again(listed: VersionedChange, states: Map<string, InspectedChange['target']>, sandbox: SandboxInfo): (InspectedChange & { ids: string }) | null {
  const { change } = listed;
  const target = states.get(change.path)!;
  const now = describe(target, sandbox);
  if (change.kind !== 'renamed' || change.oldPath === null) {
    // Line counts are the list's: a commit does not show them, and the ids prove the content the same.
    return now ? { change: { ...now, additions: change.additions, deletions: change.deletions }, target, source: null, ids: sideIds(target, sandbox.strategy) } : null;
  }
  const source = states.get(change.oldPath)!;
  const gone = describe(source, sandbox);
  if (now?.kind !== 'added' || gone?.kind !== 'deleted') return null;
  const renamed = renameChange(now, gone, { similarity: change.similarity ?? 100, additions: change.additions, deletions: change.deletions });
  return { change: renamed, target, source, ids: `${sideIds(target, sandbox.strategy)}|${sideIds(source, sandbox.strategy)}` };
}
