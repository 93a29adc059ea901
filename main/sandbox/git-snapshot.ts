/**
 * The base of a git_worktree sandbox: a commit of the original's current working state (tracked
 * edits, staged edits, untracked non-ignored files), made through a temporary index so the
 * user's index, HEAD, branches and stash stay byte-identical. HEAD itself when the tree is clean.
 * One `git status` (which never writes the user's index: optional locks are off) tells clean
 * from dirty and lists the ignored files the sandbox will not have.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { decodeName } from './fs-path.ts';
import { BINDERY_IDENTITY, git, gitText, splitNul } from './git.ts';

/** What the original's working state was turned into. */
export interface WorkingStateSnapshot {
  /** The commit the sandbox starts from. */
  commit: string;
  /** HEAD of the original at snapshot time (null in a repository without commits). */
  head: string | null;
  /** True when the working state equals HEAD (no snapshot commit was needed). */
  clean: boolean;
  /** Ignored files and folders of the original (folders collapsed): the first IGNORED_SAMPLE, and how many. */
  ignored: { sample: string[]; count: number };
}

/** How many ignored paths are kept for the UI; the count covers all of them. */
export const IGNORED_SAMPLE = 200;

/** What one rev-parse says about a folder that should be a work tree root. */
export interface OriginalRepo {
  index: string;
  head: string | null;
  tree: string | null;
}

/** The original's index path and HEAD, or the reason it cannot host a worktree sandbox. */
export async function inspectOriginal(location: string): Promise<OriginalRepo | { reason: string }> {
  const all = await git('rev-parse', ['rev-parse', '--is-bare-repository', '--show-toplevel', '--git-path', 'index', 'HEAD^{commit}', 'HEAD^{tree}'], {
    cwd: location,
    okCodes: [0, 128],
  }).catch((error: Error) => error);
  if (all instanceof Error) return { reason: `${location} is not a usable git work tree (${all.message})` };
  let lines = all.stdout.toString('utf8').trim().split('\n');
  if (all.code !== 0) {
    // No commit yet (or not a repository at all): ask again without HEAD, and let git say which.
    const again = await git('rev-parse', ['rev-parse', '--is-bare-repository', '--show-toplevel', '--git-path', 'index'], { cwd: location }).catch((error: Error) => error);
    if (again instanceof Error) return { reason: `${location} is not a usable git work tree (${again.message})` };
    lines = again.stdout.toString('utf8').trim().split('\n');
  }
  const [bare, top, index, head, tree] = lines;
  if (bare === 'true' || !top || !index) return { reason: `${location} is a bare repository, which has no working files to sandbox` };
  const [realTop, realLocation] = await Promise.all([fs.realpath(top), fs.realpath(location)]);
  if (realTop !== realLocation) return { reason: `${location} is inside the work tree ${realTop} but is not its root` };
  return { index: path.resolve(location, index), head: head ?? null, tree: tree ?? null };
}

/** Commits the working state of `repo` without touching its index or refs. */
export async function snapshotWorkingState(repo: string, original: OriginalRepo, tempDir: string, message: string, signal?: AbortSignal): Promise<WorkingStateSnapshot> {
  const { head } = original;
  const status = await git('status', ['status', '--porcelain=v2', '-z', '--untracked-files=normal', '--ignored=traditional', '--no-renames'], { cwd: repo, signal });
  const records = splitNul(status.stdout);
  const ignoredRecords = records.filter((r) => r[0] === 0x21 /* ! */);
  const ignored = { sample: ignoredRecords.slice(0, IGNORED_SAMPLE).map((r) => decodeName(r.subarray(2))), count: ignoredRecords.length };
  const dirty = records.some((r) => r[0] === 0x31 || r[0] === 0x32 || r[0] === 0x75 || r[0] === 0x3f);
  if (head && !dirty) return { commit: head, head, clean: true, ignored };
  await fs.mkdir(tempDir, { recursive: true });
  const tempIndex = path.join(tempDir, `index-${ulid()}`);
  const env = { GIT_INDEX_FILE: tempIndex };
  try {
    // Starting from a copy of the user's index keeps its stat cache: only changed files are hashed.
    const seeded = await fs.copyFile(original.index, tempIndex).then(
      () => true,
      () => false,
    );
    if (!seeded && head) await git('read-tree', ['read-tree', head], { cwd: repo, env, signal });
    await git('add (temporary index)', ['add', '-A', '--', '.'], { cwd: repo, env, signal });
    const tree = await gitText('write-tree', ['write-tree'], { cwd: repo, env, signal });
    if (head && tree === original.tree) return { commit: head, head, clean: true, ignored };
    const parents = head ? ['-p', head] : [];
    const commit = await gitText('commit-tree', ['commit-tree', tree, ...parents, '-m', message], { cwd: repo, env: BINDERY_IDENTITY, signal });
    return { commit, head, clean: false, ignored };
  } finally {
    await fs.rm(tempIndex, { force: true });
    await fs.rm(`${tempIndex}.lock`, { force: true });
  }
}
