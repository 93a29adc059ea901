/**
 * Changes of a sandbox against its base (DESIGN 2.2): the candidates from git or the manifest are
 * read on both sides, sorted into added / modified / deleted / renamed / type / mode changes with
 * binary detection and line counts, and each is classified against the original as it is now:
 * clean, conflict, or already applied.
 */
import { ConflictError } from '../../../shared/errors.ts';
import type { CacheLook, ChangeCache, ListedPath } from './cache.ts';
import { copyCandidates, learnBaseHashes } from './copy-candidates.ts';
import { gitCandidates, type GitBaseEntry } from './git-candidates.ts';
import { assertReadable, type UnreadableSide } from './unreadable.ts';
import type { DiskEntry } from './content.ts';
import { displayPath, inRoot } from '../fs/index.ts';
import { changeListVersion, sideIds, type VersionedChange } from './version.ts';
import type { ManifestEntry } from './manifest.ts';
import { CHANGE_KIND_VALUES, type ChangeCountsInfo, type ChangedFile, type CommittedState, type SandboxChangeList, type SandboxInfo } from '../../../shared/dto.ts';
import { fillCounts, needsCounts, type Pending, type WholeTree } from './counts.ts';
import { count } from './counters.ts';
import { listingEpoch, listingOf, rememberListing } from './listing.ts';
import { pairRenames, renameChange, type Pairable } from './renames.ts';
import { fingerprint } from './similarity.ts';
import { describe } from './describe.ts';
import { readAhead, readStates, type ReadAhead } from './path-states.ts';

export { committedMode } from './describe.ts';
export { readStates } from './path-states.ts';

/** What the base held at a path: a git tree entry, a manifest entry, or nothing. */
export type BaseInfo = { kind: 'git'; entry: GitBaseEntry } | { kind: 'copy'; entry: ManifestEntry } | null;

/**
 * What this sandbox's earlier commits (not undone) left in the original, by path: the original
 * holding that is the sandbox's own doing, not a change someone made there.
 */
export type OwnCommits = ReadonlyMap<string, CommittedState>;

/** One path as seen on every side at check time. */
export interface PathState {
  rel: string;
  base: BaseInfo;
  sandbox: DiskEntry;
  original: DiskEntry;
  /** The original still equals the base here. */
  originalIsBase: boolean;
  /** What this sandbox last committed here (not undone), if it did: from then on that, not the base, is what nobody else has touched. */
  ownCommit: CommittedState | null;
  /** The base content when it is known and small (git blobs; copies whose original is unchanged). */
  baseContent: Buffer | null;
  /** When reading the two sides began (ms since the epoch): changes since then may not show in their stats yet. */
  readAtMs: number;
  /** A side that could not be read: its entry above is a stand-in, and the change says so. */
  unreadable?: UnreadableSide | null;
}

/** A change with the states it was computed from (a rename has the old path's state as `source`). */
export interface InspectedChange {
  change: ChangedFile;
  target: PathState;
  source: PathState | null;
}

/**
 * Every change of a sandbox, with its states, for committing; without `counts` its modified files'
 * line counts are left unset (a diff counts its lines from the patch it makes anyway).
 */
export async function inspectChanges(sandbox: SandboxInfo, tempDir: string, ownCommits?: OwnCommits, options: { counts?: boolean } = {}): Promise<InspectedChange[]> {
  return inspectBases(sandbox, await candidateBases(sandbox, tempDir), ownCommits, options.counts ?? true);
}

/**
 * The change at one path (the new or the old path of a rename), or undefined when it has none.
 * Against the sandbox's last change list (listing.ts), only that path's two sides are read (a
 * rename's four); a path the list does not know, or whose kind or rename moved since, lists the
 * sandbox again first.
 */
export async function inspectPath(sandbox: SandboxInfo, tempDir: string, relPath: string, ownCommits?: OwnCommits): Promise<InspectedChange | undefined> {
  assertListable(sandbox);
  if (sandbox.strategy === 'none') return undefined;
  let found = await againstListing(sandbox, relPath, true, ownCommits);
  if (found === null) {
    await detectChanges(sandbox, tempDir, undefined, ownCommits);
    found = await againstListing(sandbox, relPath, false, ownCommits);
  }
  if (found?.change.unreadable) assertReadable(found.change);
  return found ?? undefined;
}

/**
 * The change at `relPath` read against the last list: undefined when the list has none there,
 * null when it has no list or (`strict`) what is read now no longer fits the list's entry.
 */
async function againstListing(sandbox: SandboxInfo, relPath: string, strict: boolean, ownCommits?: OwnCommits): Promise<InspectedChange | null | undefined> {
  const listing = listingOf(sandbox);
  const known = listing?.changes.get(relPath);
  if (!listing || !known) return strict ? null : undefined;
  const listed = known.change;
  const rels = listed.kind === 'renamed' ? [listed.path, listed.oldPath!] : [listed.path];
  const states = await readStates(sandbox, new Map(rels.map((rel) => [rel, listing.bases.get(rel) ?? null])), undefined, ownCommits, new Map());
  const [target, source] = [states[0]!, states[1] ?? null];
  const now = describe(target, sandbox);
  const ids = source ? `${sideIds(target, sandbox.strategy)}|${sideIds(source, sandbox.strategy)}` : sideIds(target, sandbox.strategy);
  const same = ids === known.ids;
  if (!source) {
    if (!now) return strict ? null : undefined;
    if (strict && now.kind !== listed.kind) return null;
    // Unchanged since the list: its counts stand (git's, in a worktree); otherwise they are counted again.
    if (same && needsCounts(now)) Object.assign(now, { additions: listed.additions, deletions: listed.deletions });
    // As a list counts: only what needs counts (a binary file would cost a git call for nothing).
    else if (needsCounts(now)) await fillCounts(sandbox, [{ state: target, change: now }]);
    return { change: now, target, source: null };
  }
  const gone = describe(source, sandbox);
  if (!now || !gone || now.kind !== 'added' || gone.kind !== 'deleted' || !same) return strict ? null : undefined;
  const change = renameChange(now, gone, { similarity: listed.similarity ?? 100, additions: listed.additions, deletions: listed.deletions });
  return { change, target, source };
}

/** Refuses a sandbox that has no folder to look at any more. */
function assertListable(sandbox: SandboxInfo): void {
  if (sandbox.status === 'discarded' || sandbox.status === 'missing' || sandbox.status === 'failed') {
    throw new ConflictError(`The sandbox of ${sandbox.resourceName} is ${sandbox.status}; it has no changes to show.`, { sandboxId: sandbox.id });
  }
}

/** The paths that may have changed, with what the base held at each. */
async function candidateBases(sandbox: SandboxInfo, tempDir: string): Promise<Map<string, BaseInfo>> {
  const bases = new Map<string, BaseInfo>();
  if (sandbox.strategy === 'none') return bases;
  assertListable(sandbox);
  count('detections');
  if (sandbox.strategy === 'git_worktree') {
    for (const [rel, entry] of await gitCandidates(sandbox, tempDir)) bases.set(rel, entry ? { kind: 'git', entry } : null);
  } else {
    for (const [rel, entry] of await copyCandidates(sandbox)) bases.set(rel, entry ? { kind: 'copy', entry } : null);
  }
  return bases;
}

/** Reads the candidates on both sides and describes each, renames paired, in path order. */
async function inspectBases(sandbox: SandboxInfo, bases: Map<string, BaseInfo>, ownCommits: OwnCommits | undefined, counts: boolean): Promise<InspectedChange[]> {
  const pairable: Array<Pairable<InspectedChange>> = [];
  const learned = new Map<string, string>();
  const states = await readStates(sandbox, bases, undefined, ownCommits, learned);
  learnBaseHashes(sandbox, learned);
  const pending: Pending[] = [];
  for (const state of states) {
    const change = describe(state, sandbox);
    if (change && needsCounts(change)) pending.push({ state, change });
    if (change) pairable.push(pairableState({ change, target: state, source: null }, sandbox.strategy));
  }
  if (counts) await fillCounts(sandbox, pending);
  const paired = pairRenames(pairable, (added, deleted, change) => ({ change, target: added.target, source: deleted.target }));
  return paired.sort((a, b) => byPath(a.change, b.change));
}

/**
 * The change list of a sandbox (DESIGN 2.2), with the read_only violation when there is one.
 * With a cache, paths whose two sides have not moved since the cache's last look are not read again.
 */
export async function detectChanges(sandbox: SandboxInfo, tempDir: string, cache?: ChangeCache, ownCommits?: OwnCommits): Promise<SandboxChangeList> {
  // Taken before anything is listed: an event from here on makes this list one not to trust as current.
  const epoch = listingEpoch(sandbox.id);
  const listing = candidateBases(sandbox, tempDir);
  // Begun once git is under way (starting it is this thread's longest step), and before anything is read.
  const look = cache?.beginLook();
  // While git lists the candidates, the paths the last look had to read are read again: most still are candidates.
  const ahead = cache && sandbox.strategy === 'git_worktree' ? readAhead(sandbox, cache.unsettled()) : undefined;
  const bases = await listing;
  const { changes, version } = await listChanges(sandbox, bases, epoch, cache && look ? { cache, look } : undefined, ahead, ownCommits);
  const violation =
    sandbox.access === 'read_only' && changes.length > 0
      ? `This sandbox is read_only but ${changes.length} path(s) changed in it (first: ${displayPath(changes[0]!.path)}). They cannot be committed; discard the sandbox.`
      : null;
  return { sandboxId: sandbox.id, planId: sandbox.planId, resourceName: sandbox.resourceName, strategy: sandbox.strategy, access: sandbox.access, changes, violation, version };
}

/**
 * Paths read and described at once by a change list: each holds both sides' contents until it is
 * reduced to its change, so a tool that changed tens of thousands of files is listed a slice at
 * a time, in bounded memory.
 */
const LIST_CHUNK = 1024;

/**
 * The changes of `bases`, reading only the paths the cache (when given, with the look it serves)
 * has no settled inspection of, a chunk at a time, with the list's version (change-version.ts).
 */
async function listChanges(sandbox: SandboxInfo, bases: Map<string, BaseInfo>, epoch: number, cached?: { cache: ChangeCache; look: CacheLook }, ahead?: ReadAhead, ownCommits?: OwnCommits): Promise<{ changes: ChangedFile[]; version: string }> {
  const { cache, look } = cached ?? {};
  cache?.retainOnly(new Set(bases.keys()));
  const context = (rel: string, base: BaseInfo) => `${sandbox.access}|${JSON.stringify(base)}|${JSON.stringify(ownCommits?.get(rel) ?? null)}`;
  const stampOf = (rel: string, base: BaseInfo) => () => cache!.stamp(look!, inRoot(sandbox.path, rel), inRoot(sandbox.originalPath, rel), context(rel, base));
  // In the order of `bases`, as a fresh look has it: which of two equal deletions pairs with an addition depends on it.
  const listed: ListedPath[] = new Array(bases.size);
  const unread: Array<[string, BaseInfo]> = [];
  const positions = new Map<string, number>();
  let at = 0;
  for (const [rel, base] of bases) {
    const kept = cache?.lookup(rel, stampOf(rel, base));
    if (kept) listed[at] = kept;
    else {
      unread.push([rel, base]);
      positions.set(rel, at);
    }
    at++;
  }
  const learned = new Map<string, string>();
  const whole: WholeTree = {};
  for (let from = 0; from < unread.length; from += LIST_CHUNK) {
    const states = await readStates(sandbox, new Map(unread.slice(from, from + LIST_CHUNK)), ahead, ownCommits, learned);
    const described = states.map((state) => describe(state, sandbox));
    await fillCounts(sandbox, described.flatMap((change, index) => (change && needsCounts(change) ? [{ state: states[index]!, change }] : [])), whole);
    states.forEach((state, index) => {
      const change = described[index]!;
      const ids = change ? pairableState({ change, target: state, source: null }, sandbox.strategy) : null;
      const half = change?.kind === 'added' || change?.kind === 'deleted';
      const path: ListedPath = {
        change,
        addedId: change?.kind === 'added' ? ids!.addedId() : null,
        deletedId: change?.kind === 'deleted' ? ids!.deletedId() : null,
        ...(change ? { ids: sideIds(state, sandbox.strategy) } : {}),
        ...(half ? { fingerprint: ids!.fingerprint() } : {}),
      };
      if (!state.unreadable) cache?.keep(look!, state.rel, [state.sandbox, state.original], stampOf(state.rel, state.base), path, state.readAtMs);
      listed[positions.get(state.rel)!] = path;
    });
  }
  // Once per list, not per slice: the manifest is rewritten whole.
  learnBaseHashes(sandbox, learned);
  const pairable = listed.flatMap((path) =>
    path.change ? [{ value: { change: path.change, ids: path.ids ?? '' }, change: path.change, addedId: () => path.addedId, deletedId: () => path.deletedId, fingerprint: () => path.fingerprint ?? null }] : [],
  );
  const versioned = pairRenames<VersionedChange>(pairable, (added, deleted, change) => ({ change, ids: `${added.ids}|${deleted.ids}` }));
  const version = changeListVersion(versioned);
  rememberListing(sandbox, version, versioned, bases, epoch);
  return { changes: versioned.map((v) => v.change).sort(byPath), version };
}

/** Counts per kind, for confirmations. */
export function countChanges(changes: ChangedFile[]): ChangeCountsInfo {
  const counts = Object.fromEntries(CHANGE_KIND_VALUES.map((kind) => [kind, 0])) as ChangeCountsInfo;
  for (const change of changes) counts[change.kind]++;
  counts.total = changes.length;
  return counts;
}

/**
 * The content identities that pair a rename. A worktree's base is named by git blob ids, which
 * need no base content (a file over the text limit has none); a copy's by sha256.
 */
function pairableState(inspected: InspectedChange, strategy: SandboxInfo['strategy']): Pairable<InspectedChange> {
  const { sandbox } = inspected.target;
  const byBlob = strategy === 'git_worktree';
  return {
    value: inspected,
    change: inspected.change,
    addedId: () => (sandbox.type === null || sandbox.type === 'other' ? null : `${sandbox.type}:${byBlob ? sandbox.blobId : sandbox.sha256}`),
    deletedId: () => baseIdentity(inspected.target),
    fingerprint: () => {
      const data = inspected.change.kind === 'added' ? (sandbox.type === 'file' || sandbox.type === 'symlink' ? sandbox.data : null) : inspected.target.baseContent;
      return data === null ? null : fingerprint(data);
    },
  };
}

function byPath(a: ChangedFile, b: ChangedFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** The content identity of the base at a deleted path, comparable with `identityOf` of a sandbox entry. */
function baseIdentity(state: PathState): string | null {
  if (state.base === null) return null;
  if (state.base.kind === 'git') return `${state.base.entry.type}:${state.base.entry.blob}`;
  if (!state.originalIsBase || state.original.type === null || state.original.type === 'other') return null;
  return `${state.original.type}:${state.original.sha256}`;
}
