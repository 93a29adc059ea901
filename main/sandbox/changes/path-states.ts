/**
 * Reading the candidates of a change list: both sides of each path (ahead of git where cheap),
 * whether the original still holds the base, and the base's content where it is known.
 */
import type { SandboxInfo } from '../../../shared/dto.ts';
import { hasEscapes, inRoot, forEachLimit } from '../fs/index.ts';
import { isUnreadable, readEntryOrWhy, readSmallEntry, TEXT_LIMIT, type DiskEntry } from './content.ts';
import { hashToLearn } from './copy-candidates.ts';
import { count } from './counters.ts';
import type { BaseInfo, OwnCommits, PathState } from './detect.ts';
import { readBlobs, unchangedThroughFilters, type GitBaseEntry } from './git-candidates.ts';
import { behindLink, type LinkMemo } from './link-parents.ts';
import { sameInstant } from './manifest.ts';
import { specialSide, type UnreadableSide } from './unreadable.ts';
import { holds, holdsOwnCommit } from './describe.ts';

/** Both sides of a path as read (the sandbox's entry, then the original's), and when reading began. */
interface Sides {
  entries: [DiskEntry, DiskEntry];
  readAtMs: number;
  /** A side that could not be read (its entry above is a stand-in). */
  unreadable?: UnreadableSide | null;
}

/** Paths read ahead of the candidate list, with what was read. */
export type ReadAhead = Map<string, Sides>;

/** Read ahead while git works, at most: enough for a tool's burst of edits, bounded in memory. */
const READ_AHEAD_BYTES = 32 * 1024 * 1024;

async function readSides(sandbox: SandboxInfo, rel: string): Promise<Sides> {
  count('sidesRead', 2);
  const readAtMs = Date.now();
  const [inSandbox, original] = await Promise.all([readEntryOrWhy(inRoot(sandbox.path, rel)), readEntryOrWhy(inRoot(sandbox.originalPath, rel))]);
  // A path that cannot be read is reported as such, not a failure of the whole list (see unreadable.ts).
  const unreadable = isUnreadable(inSandbox) ? { side: 'sandbox' as const, entry: inSandbox } : isUnreadable(original) ? { side: 'original' as const, entry: original } : null;
  const entries: [DiskEntry, DiskEntry] = [isUnreadable(inSandbox) ? { type: null } : inSandbox, isUnreadable(original) ? { type: 'other' } : original];
  return { entries, readAtMs, unreadable };
}

/**
 * Reads both sides of `rels` synchronously, so it runs while git works in its own process, with
 * their blob ids (which a worktree's list compares with the base's). Large files, paths that fail
 * to read, and whatever is past the byte budget are left to be read after git, with the rest.
 * What is read stands for the path in this look, as a read after git's would.
 */
export function readAhead(sandbox: SandboxInfo, rels: readonly string[]): ReadAhead {
  const ahead: ReadAhead = new Map();
  let bytes = 0;
  for (const rel of rels) {
    if (bytes >= READ_AHEAD_BYTES) break;
    const readAtMs = Date.now();
    count('sidesRead', 2);
    let entries: [DiskEntry | null, DiskEntry | null];
    try {
      entries = [readSmallEntry(inRoot(sandbox.path, rel)), readSmallEntry(inRoot(sandbox.originalPath, rel))];
    } catch {
      continue;
    }
    const [inSandbox, original] = entries;
    if (inSandbox === null || original === null) continue;
    for (const side of [inSandbox, original]) {
      if (side.type !== 'file' && side.type !== 'symlink') continue;
      bytes += side.size;
      void side.blobId;
    }
    ahead.set(rel, { entries: [inSandbox, original], readAtMs });
  }
  return ahead;
}

/**
 * Reads both sides of each candidate (or takes them from `ahead`), and the base content where it
 * is known; adds to `learned` the base hashes a copy's original proves (for learnBaseHashes).
 */
export async function readStates(sandbox: SandboxInfo, bases: Map<string, BaseInfo>, ahead: ReadAhead | undefined, ownCommits: OwnCommits | undefined, learned: Map<string, string>): Promise<PathState[]> {
  const rels = [...bases.keys()];
  const states: PathState[] = new Array(rels.length);
  const links: LinkMemo = new Map();
  await forEachLimit(rels, 16, async (rel, index) => {
    const base = bases.get(rel) ?? null;
    const sides = ahead?.get(rel) ?? (await readSides(sandbox, rel));
    const { entries, readAtMs } = sides;
    // Behind a folder swapped for a link nothing is there, as git has it: not what the link leads to.
    const inSandbox: DiskEntry = behindLink(sandbox.path, rel, links) ? { type: null } : entries[0];
    const original: DiskEntry = behindLink(sandbox.originalPath, rel, links) ? { type: null } : entries[1];
    // A special file in the sandbox is a change that cannot be committed, never the deletion of what the base had there.
    const unreadable = sides.unreadable ?? specialSide(inSandbox);
    // A folder in the sandbox holds nothing that can be committed at this path: where the base had
    // a file, that file is gone (a folder's own files are candidates of their own).
    const sandboxEntry: DiskEntry = inSandbox.type === 'other' ? { type: null } : inSandbox;
    const originalIsBase = matchesBase(original, base, sandbox.access === 'write_only');
    if (originalIsBase && base?.kind === 'copy' && sandbox.access !== 'write_only') {
      const sha256 = hashToLearn(base.entry, original, inRoot(sandbox.originalPath, rel));
      if (sha256 !== null) learned.set(rel, sha256);
    }
    states[index] = { rel, base, sandbox: sandboxEntry, original, originalIsBase, ownCommit: ownCommits?.get(rel) ?? null, baseContent: null, readAtMs, unreadable: unreadable ?? null };
  });
  await settleThroughFilters(sandbox, states);
  await loadBaseContent(sandbox, states);
  return states;
}

/**
 * In a worktree whose repository converts files on checkout (line endings, filters), an original
 * file's bytes differ from its base blob though nobody touched it: git, which applies the filters,
 * is asked about the files whose bytes differ, so they are not taken for someone's edits (and
 * their bytes serve as the base's). Names that are not UTF-8 cannot be passed; they stay unsure,
 * which is the safe side.
 */
async function settleThroughFilters(sandbox: SandboxInfo, states: PathState[]): Promise<void> {
  if (sandbox.strategy !== 'git_worktree' || !sandbox.baseCommit) return;
  // Where the original holds this sandbox's own commit, that commit decides its drift (describe.ts): git need not be asked.
  const unsure = states.filter((s) => !s.originalIsBase && !holds(s.original, s.ownCommit ?? undefined) && s.base?.kind === 'git' && s.base.entry.type === 'file' && s.original.type === 'file' && !hasEscapes(s.rel));
  if (unsure.length === 0) return;
  const same = await unchangedThroughFilters(sandbox.originalPath, sandbox.baseCommit, unsure.map((s) => s.rel));
  for (const state of unsure) if (same.has(state.rel)) state.originalIsBase = true;
}

function matchesBase(disk: DiskEntry, base: BaseInfo, writeOnly: boolean): boolean {
  if (writeOnly) return true;
  if (base === null) return disk.type === null;
  if (disk.type === null || disk.type === 'other' || disk.type !== base.entry.type) return false;
  if (base.kind === 'git') return disk.blobId === base.entry.blob && (disk.type === 'symlink' || (disk.mode & 0o111) === (base.entry.mode & 0o111));
  const entry = base.entry;
  if (disk.type === 'symlink') return disk.data?.toString('utf8') === entry.target;
  if (disk.mode !== entry.mode) return false;
  // Where the base's content is known (racy at copy time, or learned since), the content decides:
  // a change of ctime alone (a chmod to the same mode, a hard link, a backup) is no change.
  if (entry.sha256 !== undefined) return disk.sha256 === entry.sha256;
  const sameInode = disk.size === entry.size && sameInstant(disk.mtimeMs, entry.mtimeMs) && disk.ino === entry.ino;
  // The ctime catches a write in place that kept the size and put the old mtime back (cp -p, touch -r).
  return sameInode && (entry.ctimeMs === undefined || sameInstant(disk.ctimeMs, entry.ctimeMs));
}

async function loadBaseContent(sandbox: SandboxInfo, states: PathState[]): Promise<void> {
  // Where the original still holds the base, its bytes are the base's (the same content identity); git is asked for the rest.
  const fromGit: Array<PathState & { base: { kind: 'git'; entry: GitBaseEntry } }> = [];
  for (const state of states) {
    if (state.base === null) continue;
    // Where the original holds this sandbox's own last commit (a partial commit), what is still pending starts from there.
    const fromOriginal = state.originalIsBase || holdsOwnCommit(state);
    if (fromOriginal && state.original.type !== null && state.original.type !== 'other') state.baseContent = state.original.data;
    else if (state.base.kind === 'git') fromGit.push(state as (typeof fromGit)[number]);
  }
  const blobs = await readBlobs(sandbox.path, fromGit.map((state) => state.base.entry.blob), TEXT_LIMIT);
  for (const state of fromGit) state.baseContent = blobs.get(state.base.entry.blob) ?? null;
}
