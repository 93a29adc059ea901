/**
 * The unified diff of one changed path (hunk-patch.ts), or of every change of a sandbox from one
 * look, against the base; for a copy whose original changed (so the base content is gone) against
 * the original as it is now, and said so. Binary files are described by size; files over the
 * text limit are gated.
 */
import { NotFoundError } from '../../../shared/errors.ts';
import { inspectChanges, inspectPath, type InspectedChange, type OwnCommits, type PathState } from './detect.ts';
import { assertReadable } from './unreadable.ts';
import { TEXT_LIMIT } from './content.ts';
import { hunkPatch } from './hunk-patch.ts';
import { displayPath } from '../fs/index.ts';
import type { FileDiff, SandboxInfo } from '../../../shared/dto.ts';

/**
 * The diff of `relPath` (the new path of a rename, or its old path) in a sandbox; after a partial
 * commit (`ownCommits`), what is still pending: the original as committed against the sandbox.
 */
export async function fileDiff(sandbox: SandboxInfo, relPath: string, tempDir: string, ownCommits?: OwnCommits): Promise<FileDiff> {
  const found = await inspectPath(sandbox, tempDir, relPath, ownCommits);
  if (!found) {
    throw new NotFoundError(`${displayPath(relPath)} has no change in the sandbox of ${sandbox.resourceName}: look at the list of the plan's changes.`, {
      path: relPath,
      hints: [{ action: 'list-changes', plan: sandbox.planId }],
    });
  }
  return inspectedDiff(found);
}

/**
 * The diffs of every change of a sandbox in path order (with `only`, of the change whose new path
 * it is): one look at the sandbox, each file read once, and no line counts asked of git, since
 * each patch counts its own lines. A path that cannot be read fails the whole, as its diff would.
 */
export async function sandboxDiffs(sandbox: SandboxInfo, tempDir: string, ownCommits?: OwnCommits, only?: string): Promise<FileDiff[]> {
  const inspected = await inspectChanges(sandbox, tempDir, ownCommits, { counts: false });
  const chosen = only === undefined ? inspected : inspected.filter((found) => found.change.path === only);
  for (const found of chosen) if (found.change.unreadable) assertReadable(found.change);
  return chosen.map(inspectedDiff);
}

/** The diff of one change from the states it was read from. */
function inspectedDiff(found: InspectedChange): FileDiff {
  const { change, target } = found;
  const before: PathState = found.source ?? target;
  const head = { path: change.path, oldPath: change.oldPath };
  let oldData: Buffer | null = null;
  let against: FileDiff['against'] = 'base';
  if (change.kind !== 'added') {
    oldData = before.baseContent;
    if (oldData === null) {
      // The base is gone (a copy whose original changed): the original as it is now, which may hold nothing there.
      const original = before.original;
      oldData = original.type === null || original.type === 'other' ? Buffer.alloc(0) : original.data;
      against = 'original';
    }
  }
  const now = target.sandbox;
  const newData = now.type === null ? Buffer.alloc(0) : now.type === 'other' ? null : now.data;
  const oldSize = change.kind === 'added' ? null : (oldData?.length ?? sizeOf(before));
  const newSize = now.type === null || now.type === 'other' ? null : now.size;
  if (change.binary) return { ...head, against, kind: 'binary', oldSize, newSize };
  if ((change.kind !== 'added' && oldData === null) || newData === null) {
    return { ...head, against, kind: 'too_large', oldSize, newSize, limit: TEXT_LIMIT };
  }
  const oldText = (oldData ?? Buffer.alloc(0)).toString('utf8');
  const oldName = change.kind === 'added' ? '/dev/null' : headerName('a/', change.oldPath ?? change.path);
  const newName = now.type === null ? '/dev/null' : headerName('b/', change.path);
  const newText = newData.toString('utf8');
  // A NUL past the bytes binary detection looks at still makes the file binary.
  if (oldText.includes('\0') || newText.includes('\0')) return { ...head, against, kind: 'binary', oldSize, newSize };
  const made = hunkPatch(oldName, newName, oldText, newText, { ...head, against, kind: 'text' as const });
  if (change.oldPath) made.patch = `${renameHeader(change.oldPath, change.path, change.similarity)}${made.patch}`;
  return made;
}

/**
 * git's extended header of a rename: without it, `git apply` reads `--- a/old` / `+++ b/new` as an
 * edit of a file that does not exist. Also the whole patch of a rename with no edit.
 */
function renameHeader(oldPath: string, newPath: string, similarity: number | undefined): string {
  const bare = (name: string) => headerName('', name);
  const likeness = similarity === undefined ? '' : `similarity index ${similarity}%\n`;
  return `diff --git ${headerName('a/', oldPath)} ${headerName('b/', newPath)}\n${likeness}rename from ${bare(oldPath)}\nrename to ${bare(newPath)}\n`;
}

/**
 * A name for a `---`/`+++` line, quoted as git quotes it when it holds a control character, a
 * quote or a backslash, so a newline in a name cannot break the patch.
 */
function headerName(prefix: string, relPath: string): string {
  const name = `${prefix}${displayPath(relPath)}`;
  const quoted = JSON.stringify(name);
  // JSON escapes exactly the control characters, quotes and backslashes.
  return quoted.length === name.length + 2 ? name : quoted;
}

function sizeOf(state: PathState): number | null {
  const base = state.base;
  if (base?.kind === 'copy') return base.entry.size;
  return state.original.type === null || state.original.type === 'other' ? null : state.original.size;
}
