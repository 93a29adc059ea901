/**
 * The base of a git_worktree sandbox: a commit of the original's current working state (tracked
 * edits, staged edits, untracked non-ignored files), made through a temporary index so the
 * user's index, HEAD, branches and stash stay byte-identical. HEAD itself when the tree is clean.
 * One `git status` (which never writes the user's index: optional locks are off) gives HEAD,
 * tells clean from dirty and lists the ignored files the sandbox will not have; it follows the
 * rev-parse that checks the folder is a work tree root.
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

/** What the rev-parse half of the inspection found: a usable work tree root, its index, HEAD and HEAD's tree. */
export interface UsableRoot {
  index: string;
  head: string | null;
  tree: string | null;
}

/** What `inspectOriginal` found: where the index is, what HEAD is, and how the working state differs from it. */
export interface OriginalRepo {
  index: string;
  /** HEAD as the status saw it (null in a repository without commits). */
  head: string | null;
  /** HEAD's tree, or null when unknown (no commits, or HEAD moved between the two queries). */
  tree: string | null;
  /** The status found tracked or untracked changes. */
  dirty: boolean;
  ignored: WorkingStateSnapshot['ignored'];
}

const STATUS_ARGS = ['status', '--porcelain=v2', '-z', '--branch', '--no-ahead-behind', '--untracked-files=normal', '--ignored=traditional', '--no-renames'];
const BRANCH_OID = Buffer.from('# branch.oid ');
const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** An inspection under way: the rev-parse's answer, and the whole once the status has run too. */
export interface Inspection {
  root: Promise<UsableRoot | { reason: string }>;
  /** Runs the status (once, after the rev-parse has answered) and joins the two. */
  original(): Promise<OriginalRepo | { reason: string }>;
}

/**
 * Starts inspecting an original: one rev-parse (usable? root? index? HEAD?) at once, and one
 * status (HEAD, clean or dirty, ignored files) when asked for, once the rev-parse has found a
 * usable work tree. The caller can start work on HEAD (each process started costs a fork of this
 * one) before the status.
 */
export function startInspection(location: string, signal?: AbortSignal): Inspection {
  const root = usableRoot(location, signal);
  let original: Promise<OriginalRepo | { reason: string }> | undefined;
  return {
    root,
    original: () => (original ??= root.then((repo) => ('reason' in repo ? repo : withStatus(location, repo, signal)))),
  };
}

/** The original's index, HEAD and status, or the reason it cannot host a worktree sandbox. */
export async function inspectOriginal(location: string, signal?: AbortSignal): Promise<OriginalRepo | { reason: string }> {
  return startInspection(location, signal).original();
}

/** The status half of the inspection, joined with the rev-parse's answer. */
async function withStatus(location: string, repo: UsableRoot, signal?: AbortSignal): Promise<OriginalRepo | { reason: string }> {
  const status = await git('status', STATUS_ARGS, { cwd: location, signal }).catch((error: Error) => error);
  if (status instanceof Error) {
    if (signal?.aborted) throw status;
    return { reason: `${location} is not a usable git work tree (${status.message})` };
  }
  const records = splitNul(status.stdout);
  const oid = records.find((r) => r.subarray(0, BRANCH_OID.length).equals(BRANCH_OID))?.toString('latin1').slice(BRANCH_OID.length);
  const head = oid && oid !== '(initial)' ? oid : null;
  const ignoredRecords = records.filter((r) => r[0] === 0x21 /* ! */);
  return {
    index: repo.index,
    head,
    tree: head !== null && head === repo.head ? repo.tree : null,
    dirty: records.some((r) => r[0] === 0x31 || r[0] === 0x32 || r[0] === 0x75 || r[0] === 0x3f),
    ignored: { sample: ignoredRecords.slice(0, IGNORED_SAMPLE).map((r) => decodeName(r.subarray(2))), count: ignoredRecords.length },
  };
}

/** The rev-parse half of `inspectOriginal`: a non-bare work tree whose root is `location`, its index path, HEAD and HEAD's tree. */
async function usableRoot(location: string, signal?: AbortSignal): Promise<UsableRoot | { reason: string }> {
  // Without commits, HEAD^{commit} fails (128) after the first three answers are printed.
  const result = await git('rev-parse', ['rev-parse', '--is-bare-repository', '--show-toplevel', '--git-path', 'index', 'HEAD^{commit}', 'HEAD^{tree}'], {
    cwd: location,
    okCodes: [0, 128],
    signal,
  }).catch((error: Error) => error);
  if (result instanceof Error) {
    if (signal?.aborted) throw result;
    return { reason: `${location} is not a usable git work tree (${result.message})` };
  }
  const [bare, top, index, head, tree] = result.stdout.toString('utf8').trim().split('\n');
  if (bare === 'true') return { reason: `${location} is a bare repository, which has no working files to sandbox` };
  if (!top || !index) return { reason: `${location} is not a usable git work tree (${result.stderr || `rev-parse exit code ${result.code}`})` };
  const [realTop, realLocation] = await Promise.all([fs.realpath(top), fs.realpath(location)]);
  if (realTop !== realLocation) return { reason: `${location} is inside the work tree ${realTop} but is not its root` };
  const known = (id: string | undefined): string | null => (id && OBJECT_ID.test(id) ? id : null);
  return { index: path.resolve(location, index), head: known(head), tree: known(tree) };
}

/** Commits the working state of `repo` without touching its index or refs. */
export async function snapshotWorkingState(repo: string, original: OriginalRepo, tempDir: string, message: string, signal?: AbortSignal): Promise<WorkingStateSnapshot> {
  const { head, ignored } = original;
  if (head && !original.dirty) return { commit: head, head, clean: true, ignored };
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
