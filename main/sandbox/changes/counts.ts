/**
 * Line counts of modified files, at a cost bounded by their sizes: in a worktree git counts them
 * itself (one `git diff --numstat` for all, base commit against the working tree, as the user's
 * own `git diff` would); elsewhere, or where git does not answer for a path, shared/diff/line-match.ts does,
 * in a worker thread when the texts are large (line-count-worker.ts).
 */
import { decodeName, hasEscapes } from '../fs/index.ts';
import { git, splitNul } from '../../git/index.ts';
import type { ChangedFile, SandboxInfo } from '../../../shared/dto.ts';
import { insertedOrRemoved, lineCounts } from './content.ts';
import { countOffThread, OFF_THREAD_BYTES } from './line-count-worker.ts';
import type { PathState } from './detect.ts';
import { holdsOwnCommit } from './describe.ts';

/** Line counts, by path. */
export type Counts = { additions: number; deletions: number };

/** Paths per git call: well under any command line's limit. */
const PATHS_PER_CALL = 500;

/** A change whose line counts are still to be found (modified text), with the state it was read from. */
export interface Pending {
  state: PathState;
  change: ChangedFile;
}

/** True for a change described without its line counts: a text file whose content changed. */
export function needsCounts(change: ChangedFile): boolean {
  return !change.binary && change.additions === null && (change.kind === 'modified' || change.kind === 'type_changed');
}

/** Git's counts for the whole work tree, asked once per list (its slices share them). */
export interface WholeTree {
  counts?: Promise<Map<string, Counts>>;
}

/**
 * Fills in the line counts of `pending` changes, in place. Many paths at once are asked of git
 * without pathspecs (matching hundreds of them costs git more than diffing), once per `whole`.
 */
export async function fillCounts(sandbox: SandboxInfo, pending: readonly Pending[], whole: WholeTree = {}): Promise<void> {
  if (pending.length === 0) return;
  // Lines only appended, inserted or removed in one place are counted here at once: git would read the file again.
  const rest = pending.filter((item) => !countedAtOnce(item));
  if (rest.length === 0) return;
  const byGit = sandbox.strategy === 'git_worktree' && sandbox.baseCommit ? rest.filter(gitCanCount) : [];
  const base = sandbox.baseCommit as string;
  let counted = new Map<string, Counts>();
  // Git refuses the whole diff for one path it cannot hash (a file swapped for a FIFO meanwhile):
  // then every count is made here instead, and the list still comes.
  if (byGit.length > PATHS_PER_CALL || (byGit.length > 0 && whole.counts)) counted = await (whole.counts ??= orNone(numstat(sandbox.path, base, null)));
  else if (byGit.length > 0) counted = await orNone(numstat(sandbox.path, base, byGit.map((p) => p.state.rel)));
  for (const item of rest) {
    const counts = counted.get(item.state.rel) ?? (await countInProcess(item.state));
    if (!counts) continue;
    item.change.additions = counts.additions;
    item.change.deletions = counts.deletions;
  }
}

function orNone(counts: Promise<Map<string, Counts>>): Promise<Map<string, Counts>> {
  return counts.catch(() => new Map<string, Counts>());
}

/** Sets the counts of a change whose texts differ by lines inserted or removed in one place; false for any other. */
function countedAtOnce({ state, change }: Pending): boolean {
  const now = state.sandbox;
  const after = now.type === 'file' || now.type === 'symlink' ? now.data : null;
  if (after === null || state.baseContent === null || after.length + state.baseContent.length >= OFF_THREAD_BYTES) return false;
  const counts = insertedOrRemoved(state.baseContent.toString('utf8'), after.toString('utf8'));
  if (counts) Object.assign(change, counts);
  return counts !== null;
}

/** A file both in the base commit and in the working tree, with a name git can be given. */
function gitCanCount({ state, change }: Pending): boolean {
  // Git counts against the base commit; after a partial commit the pending rest starts from the original.
  return change.kind === 'modified' && !holdsOwnCommit(state) && state.base?.kind === 'git' && state.base.entry.type === 'file' && state.sandbox.type === 'file' && !hasEscapes(state.rel);
}

/** The counts of the texts read for a change (base → sandbox), or null when a side is too large to hold. */
async function countInProcess(state: PathState): Promise<Counts | null> {
  const now = state.sandbox;
  const after = now.type === null || now.type === 'other' ? null : now.data;
  const before = state.baseContent;
  if (after === null || before === null) return null;
  if (before.length + after.length >= OFF_THREAD_BYTES) return countOffThread(before, after);
  return lineCounts(before.toString('utf8'), after.toString('utf8'));
}

/**
 * `git diff --numstat` of `rels` (null: all) in the work tree `repo` against `commit`: the counts of the paths
 * git finds modified (not those it would call deleted, such as a file left out of the index).
 * Binary files, which git does not count, are left out.
 */
export async function numstat(repo: string, commit: string, rels: readonly string[] | null): Promise<Map<string, Counts>> {
  const counts = new Map<string, Counts>();
  const all = rels ?? [];
  for (let from = 0; from < all.length || (rels === null && from === 0); from += PATHS_PER_CALL) {
    const pathspecs = all.slice(from, from + PATHS_PER_CALL).map((rel) => `:(literal)${rel}`);
    const args = ['diff', '--raw', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', '--ignore-submodules', commit, '--', ...pathspecs];
    const out = await git('diff --numstat', args, { cwd: repo });
    const records = splitNul(out.stdout);
    const modified = new Set<string>();
    let at = 0;
    // The --raw records (":<modes> <ids> <status>", then the path) come first, then the --numstat ones.
    for (; at + 1 < records.length && records[at]![0] === 0x3a; at += 2) {
      if (records[at]!.toString('latin1').endsWith(' M')) modified.add(decodeName(records[at + 1]!));
    }
    for (; at < records.length; at++) {
      const record = records[at]!;
      const first = record.indexOf(0x09);
      const second = record.indexOf(0x09, first + 1);
      if (first === -1 || second === -1) continue;
      const [added, deleted] = [record.toString('latin1', 0, first), record.toString('latin1', first + 1, second)];
      const rel = decodeName(record.subarray(second + 1));
      if (added === '-' || !modified.has(rel)) continue;
      counts.set(rel, { additions: Number(added), deletions: Number(deleted) });
    }
  }
  return counts;
}
