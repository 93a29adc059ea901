/**
 * The base of a git_worktree sandbox: a commit of the original's current working state (tracked
 * edits, staged edits, untracked non-ignored files), made through a temporary index so the
 * user's index, HEAD, branches and stash stay byte-identical. HEAD itself when the tree is clean.
 * One `git status` (which never writes the user's index: optional locks are off) gives HEAD,
 * tells clean from dirty and lists the ignored files the sandbox will not have; it follows the
 * rev-parse that checks the folder is a work tree root. What a worktree cannot hold (populated
 * submodules, repositories that are not submodules) is looked for only where the status or a
 * `.gitmodules` points, so a clean original costs one lstat more.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { decodeName, displayPath, hasEscapes, inRoot } from '../fs/index.ts';
import { BINDERY_IDENTITY, git, gitText, isObjectId, splitNul } from '../../git/index.ts';
import { adoptObjects, dropStaging, stageObjects } from '../discard/index.ts';

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
  /** Paths whose working content differs from HEAD: changed tracked files, untracked files, and untracked folders as `dir/`. */
  changed: string[];
  ignored: WorkingStateSnapshot['ignored'];
}

/**
 * Makes git treat a skip-worktree entry whose file is present like any other, as it does in a
 * sparse checkout since git 2.37 (older git ignores this): a file hidden that way with local
 * edits then counts as changed and is carried over as it is, while files a sparse checkout left
 * out stay out. Assume-unchanged has no such switch (see snapshotWorkingState).
 */
const PRESENT_SKIP_WORKTREE = ['-c', 'core.sparseCheckout=true', '-c', 'sparse.expectFilesOutsideOfPatterns=false'];
const STATUS_ARGS = [...PRESENT_SKIP_WORKTREE, 'status', '--porcelain=v2', '-z', '--branch', '--no-ahead-behind', '--untracked-files=normal', '--ignored=traditional', '--no-renames'];
const BRANCH_OID = Buffer.from('# branch.oid ');

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
  const [status, submodules] = await Promise.all([git('status', STATUS_ARGS, { cwd: location, signal }).catch((error: Error) => error), populatedSubmodules(location, signal)]);
  if (status instanceof Error) {
    if (signal?.aborted) throw status;
    return { reason: `${location} is not a usable git work tree (${status.message})` };
  }
  if (submodules.length > 0) return { reason: `the checkout has populated submodules (${listed(submodules)}), which a worktree does not check out` };
  const records = splitNul(status.stdout);
  const nested = await nestedRepositories(location, records, signal);
  if (nested.length > 0) return { reason: `the checkout holds git repositories that are not submodules (${listed(nested)}), which a worktree cannot hold` };
  const oid = records.find((r) => r.subarray(0, BRANCH_OID.length).equals(BRANCH_OID))?.toString('latin1').slice(BRANCH_OID.length);
  const head = oid && oid !== '(initial)' ? oid : null;
  const ignoredRecords = records.filter((r) => r[0] === 0x21 /* ! */);
  return {
    index: repo.index,
    head,
    tree: head !== null && head === repo.head ? repo.tree : null,
    dirty: records.some((r) => r[0] === 0x31 || r[0] === 0x32 || r[0] === 0x75 || r[0] === 0x3f),
    changed: changedPaths(records),
    ignored: { sample: ignoredRecords.slice(0, IGNORED_SAMPLE).map((r) => decodeName(r.subarray(2))), count: ignoredRecords.length },
  };
}

/**
 * Submodule folders of the original that hold anything: a worktree checks submodules out as empty
 * folders. Only a `.gitmodules` at the top (one lstat, the common case ends there) leads further.
 */
async function populatedSubmodules(location: string, signal?: AbortSignal): Promise<string[]> {
  if (!(await fs.lstat(path.join(location, '.gitmodules')).then(() => true, () => false))) return [];
  const config = await git('submodule paths', ['config', '-z', '-f', '.gitmodules', '--get-regexp', '^submodule\\..*\\.path$'], { cwd: location, okCodes: [0, 1], signal });
  // Each record is `<key>\n<path>`.
  const paths = splitNul(config.stdout).map((record) => decodeName(record.subarray(record.indexOf(0x0a) + 1)));
  const populated = await Promise.all(paths.map((name) => fs.readdir(inRoot(location, name)).then((entries) => entries.length > 0, () => false)));
  return paths.filter((_, index) => populated[index]);
}

/**
 * Untracked git repositories inside the original (clones that are not submodules): `git add`
 * would record each as a bare commit id, and the sandbox would get an empty folder. They can only
 * be in the untracked folders the status listed: one that has a `.git` is one; the others are
 * searched by git, which lists a repository inside them as `<path>/`.
 */
async function nestedRepositories(location: string, records: Buffer[], signal?: AbortSignal): Promise<string[]> {
  const folders = records.filter((r) => r[0] === 0x3f /* ? */ && r[r.length - 1] === 0x2f /* / */).map((r) => decodeName(r.subarray(2, -1)));
  if (folders.length === 0) return [];
  const isRepository = await Promise.all(folders.map((folder) => fs.lstat(inRoot(location, `${folder}/.git`)).then(() => true, () => false)));
  const nested = folders.filter((_, index) => isRepository[index]);
  const others = folders.filter((_, index) => !isRepository[index]);
  if (others.length === 0) return nested;
  // Names git printed that are not UTF-8 cannot be passed back as arguments: then it searches everything untracked.
  const pathspecs = others.some(hasEscapes) ? [] : ['--', ...others.map((folder) => `${folder}/`)];
  const listing = await git('ls-files (untracked)', ['--literal-pathspecs', 'ls-files', '-z', '--others', '--exclude-standard', ...pathspecs], { cwd: location, signal });
  const inside = splitNul(listing.stdout).filter((r) => r[r.length - 1] === 0x2f).map((r) => decodeName(r.subarray(0, -1)));
  return [...nested, ...inside];
}

/** The paths of the status's change records (`1`, `2` and `u` after their fields; `?` after its tag), renames' old paths left out. */
function changedPaths(records: Buffer[]): string[] {
  const fieldsOf: Record<number, number> = { 0x31: 8, 0x32: 9, 0x75: 10, 0x3f: 1 };
  const paths: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const fields = fieldsOf[record[0]!];
    if (fields === undefined) continue;
    let start = 0;
    for (let k = 0; k < fields; k++) start = record.indexOf(0x20, start) + 1;
    paths.push(decodeName(record.subarray(start)));
    if (record[0] === 0x32) i++; // a rename's old path follows as a record of its own
  }
  return paths;
}

/** Paths for a message: the first few, and how many more. */
function listed(paths: string[]): string {
  const shown = paths.slice(0, 3).map(displayPath).join(', ');
  return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown;
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
  const known = (id: string | undefined): string | null => (isObjectId(id) ? id : null);
  return { index: path.resolve(location, index), head: known(head), tree: known(tree) };
}

/**
 * For git that writes the temporary index: a split index would leave a new `sharedindex.*` file
 * in the user's `.git`, so the temporary one is always written whole.
 */
const WHOLE_INDEX = ['-c', 'core.splitIndex=false'];

/**
 * Copies the user's index to `tempIndex`, whose stat cache then spares hashing unchanged files;
 * false when there is none. The copy keeps the index's times: git compares by content the entries
 * as new as the index file ("racily clean"), and a newer copy would let a same-size edit made in
 * the second of the last `git add` pass as unchanged. Stat before copy, so an index rewritten
 * meanwhile only makes more entries racy.
 */
async function seedIndex(index: string, tempIndex: string): Promise<boolean> {
  const times = await fs.stat(index).catch(() => null);
  if (!times) return false;
  const copied = await fs.copyFile(index, tempIndex).then(
    () => true,
    () => false,
  );
  // Dates hold whole milliseconds, rounded down: never later than the index, so no racy entry is lost.
  if (copied) await fs.utimes(tempIndex, times.atime, times.mtime);
  return copied;
}

/**
 * Commits the working state of `repo` without touching its index or refs. A file marked
 * assume-unchanged is taken as in the index whatever its content: git has no switch to ignore the
 * mark, and finding marked entries would take a pass over the whole index on every provision.
 */
export async function snapshotWorkingState(repo: string, original: OriginalRepo, tempDir: string, message: string, signal?: AbortSignal): Promise<WorkingStateSnapshot> {
  const { head, ignored } = original;
  if (head && !original.dirty) return { commit: head, head, clean: true, ignored };
  await fs.mkdir(tempDir, { recursive: true });
  const tempIndex = path.join(tempDir, `index-${ulid()}`);
  // Objects go to a folder of Bindery's first (see git-objects.ts), the user's read through alternates.
  const staging = await stageObjects(repo, tempDir);
  const env = { GIT_INDEX_FILE: tempIndex, ...staging.env };
  try {
    const seeded = await seedIndex(original.index, tempIndex);
    if (!seeded && head) await git('read-tree', ['read-tree', ...WHOLE_INDEX, head], { cwd: repo, env, signal });
    await git('add (temporary index)', [...WHOLE_INDEX, ...PRESENT_SKIP_WORKTREE, 'add', '-A', '--', '.'], { cwd: repo, env, signal });
    const tree = await gitText('write-tree', [...WHOLE_INDEX, 'write-tree'], { cwd: repo, env, signal });
    if (head && tree === original.tree) return { commit: head, head, clean: true, ignored };
    const parents = head ? ['-p', head] : [];
    const commit = await gitText('commit-tree', ['commit-tree', tree, ...parents, '-m', message], { cwd: repo, env: { ...BINDERY_IDENTITY, ...staging.env }, signal });
    await adoptObjects(staging, tempDir, commit);
    return { commit, head, clean: false, ignored };
  } finally {
    await dropStaging(staging);
    await fs.rm(tempIndex, { force: true });
    await fs.rm(`${tempIndex}.lock`, { force: true });
  }
}
