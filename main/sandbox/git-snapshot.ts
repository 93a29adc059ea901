/**
 * The base of a git_worktree sandbox: a commit of the original's current working state (tracked
 * edits, staged edits, untracked non-ignored files), made through a temporary index so the
 * user's index, HEAD, branches and stash stay byte-identical. HEAD itself when the tree is clean.
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
}

/** How many ignored paths are kept for the UI; the count covers all of them. */
export const IGNORED_SAMPLE = 200;

/** Why `location` cannot host a git worktree sandbox, or null when it can. */
export async function worktreeUnusableReason(location: string): Promise<string | null> {
  let top: string;
  try {
    const [bare, topLevel] = (await gitText('rev-parse', ['rev-parse', '--is-bare-repository', '--show-toplevel'], { cwd: location })).split('\n');
    if (bare === 'true' || !topLevel) return `${location} is a bare repository, which has no working files to sandbox`;
    top = topLevel;
  } catch (error) {
    return `${location} is not a usable git work tree (${(error as Error).message})`;
  }
  const [realTop, realLocation] = await Promise.all([fs.realpath(top), fs.realpath(location)]);
  if (realTop !== realLocation) return `${location} is inside the work tree ${realTop} but is not its root`;
  return null;
}

/** The user's index file, HEAD and HEAD's tree (both null in a repository without commits), in one git call when HEAD exists. */
async function headState(repo: string, signal?: AbortSignal): Promise<{ index: string; head: string | null; tree: string | null }> {
  const all = await git('rev-parse', ['rev-parse', '--git-path', 'index', 'HEAD^{commit}', 'HEAD^{tree}'], { cwd: repo, okCodes: [0, 128], signal });
  const [indexPath, head, tree] = all.stdout.toString('utf8').trim().split('\n');
  if (all.code === 0 && head && tree) return { index: path.resolve(repo, indexPath as string), head, tree };
  const index = await gitText('rev-parse --git-path', ['rev-parse', '--git-path', 'index'], { cwd: repo, signal });
  return { index: path.resolve(repo, index), head: null, tree: null };
}

/** Commits the working state of `repo` without touching its index or refs. */
export async function snapshotWorkingState(repo: string, tempDir: string, message: string, signal?: AbortSignal): Promise<WorkingStateSnapshot> {
  const { index, head, tree: headTree } = await headState(repo, signal);
  await fs.mkdir(tempDir, { recursive: true });
  const tempIndex = path.join(tempDir, `index-${ulid()}`);
  const env = { GIT_INDEX_FILE: tempIndex };
  try {
    // Starting from a copy of the user's index keeps its stat cache: only changed files are hashed.
    const seeded = await fs.copyFile(index, tempIndex).then(
      () => true,
      () => false,
    );
    if (!seeded && head) await git('read-tree', ['read-tree', head], { cwd: repo, env, signal });
    await git('add (temporary index)', ['add', '-A', '--', '.'], { cwd: repo, env, signal });
    const tree = await gitText('write-tree', ['write-tree'], { cwd: repo, env, signal });
    if (head && tree === headTree) return { commit: head, head, clean: true };
    const parents = head ? ['-p', head] : [];
    const commit = await gitText('commit-tree', ['commit-tree', tree, ...parents, '-m', message], { cwd: repo, env: BINDERY_IDENTITY, signal });
    return { commit, head, clean: false };
  } finally {
    await fs.rm(tempIndex, { force: true });
    await fs.rm(`${tempIndex}.lock`, { force: true });
  }
}

/** The ignored files and folders of `repo` (folders collapsed), first `IGNORED_SAMPLE` of them and the count. */
export async function ignoredFiles(repo: string, signal?: AbortSignal): Promise<{ sample: string[]; count: number }> {
  const output = await git('ls-files ignored', ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], { cwd: repo, signal });
  const all = splitNul(output.stdout);
  return { sample: all.slice(0, IGNORED_SAMPLE).map(decodeName), count: all.length };
}
