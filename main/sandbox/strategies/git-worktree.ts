/**
 * The git_worktree strategy: snapshot the original's working state, pin it under a private ref,
 * and check it out with `git worktree add --detach --lock` into the sandbox folder. Undone
 * completely on failure or cancel, so the original's `.git` is left as it was.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CancelledError } from '../../../shared/errors.ts';
import { git } from '../git.ts';
import { hasEscapes, inRoot } from '../fs-path.ts';
import { snapshotWorkingState, type Inspection } from '../git-snapshot.ts';
import { walkSync } from '../walk.ts';
import type { ProvisionProgress } from '../copy-tree.ts';

/** Input of `provisionWorktree`. */
export interface WorktreeRequest {
  repo: string;
  /** The inspection of the original, started by the caller (see startInspection). */
  inspection: Inspection;
  sandboxPath: string;
  /** The private ref that keeps the base reachable, e.g. `refs/bindery/<plan>/<sandbox>`. */
  ref: string;
  planId: string;
  tempDir: string;
  signal?: AbortSignal;
  onProgress?: (progress: ProvisionProgress) => void;
  /** Index size from which the checkout can be cancelled mid-way (default CANCELLABLE_FROM_INDEX_BYTES). */
  cancellableFromIndexBytes?: number;
}

/**
 * From this size of the original's index (some 5,000 files) the checkout is a step of its own that
 * a cancel stops at once. Below it `worktree add` checks out too, in one process: it ends within
 * about a second, and a cancel waits for it (see `place`).
 */
export const CANCELLABLE_FROM_INDEX_BYTES = 512 * 1024;

/** What the worktree sandbox starts from. */
export interface WorktreeResult {
  baseCommit: string;
  clean: boolean;
  ignoredFiles: string[];
  ignoredCount: number;
}

/** The private ref of a sandbox. */
export function baseRefFor(planId: string, sandboxId: string): string {
  return `refs/bindery/${planId}/${sandboxId}`;
}

/**
 * Creates the worktree sandbox, or returns why the original cannot host one (nothing made then).
 * The checkout of HEAD starts as soon as the rev-parse has named it, before the status runs: a
 * clean original (the common case) is then done when the status says so, and a dirty one's
 * worktree moves on to the snapshot, which differs from HEAD only where the original does. On
 * any failure everything made is removed and the error rethrown.
 */
export async function provisionWorktree(request: WorktreeRequest): Promise<WorktreeResult | { reason: string }> {
  const { repo, signal, onProgress } = request;
  onProgress?.({ phase: 'snapshot', done: 0, total: 1 });
  const root = await request.inspection.root;
  if ('reason' in root) return root;
  const refValues = new Set<string>();
  const cancellable = indexBytes(root.index) >= (request.cancellableFromIndexBytes ?? CANCELLABLE_FROM_INDEX_BYTES);
  const early = root.head === null ? null : place(request, root.head, refValues, cancellable);
  // Awaited below or by the undo; until then a failure of it must not count as unhandled.
  early?.catch(() => undefined);
  try {
    const original = await request.inspection.original();
    if ('reason' in original) {
      await undo(request, early, refValues);
      return original;
    }
    const snapshot = await snapshotWorkingState(repo, original, request.tempDir, `Bindery: working state of ${repo} for plan ${request.planId}`, signal);
    onProgress?.({ phase: 'checkout', done: 0, total: 1 });
    await (early ?? place(request, snapshot.commit, refValues, cancellable));
    throwIfCancelled(signal);
    if (root.head !== null && snapshot.commit !== root.head) await moveTo(request, root.head, snapshot.commit, refValues);
    if (!snapshot.clean) await keepOriginalBytes(repo, request.sandboxPath, original.changed);
    throwIfCancelled(signal);
    onProgress?.({ phase: 'finishing', done: 1, total: 1 });
    return { baseCommit: snapshot.commit, clean: snapshot.clean, ignoredFiles: snapshot.ignored.sample, ignoredCount: snapshot.ignored.count };
  } catch (error) {
    await undo(request, early, refValues);
    throw error;
  }
}

/**
 * Checks `commit` out into the sandbox and points the private ref at it. The two do not depend on
 * each other (the worktree's own HEAD keeps the commit reachable meanwhile), so they run side by
 * side, the longer one started first. Rejects with the first failure once both have ended. Adds
 * to `refValues` the value the ref holds because of it.
 *
 * Steps that write into the user's `.git` (adding the worktree, setting the ref) are never killed:
 * a git stopped there can leave a lock file or half an admin folder behind. A cancel takes effect
 * between steps, and during the checkout proper when it is `cancellable`, which writes only into
 * the sandbox and its own admin folder (removed whole by the undo).
 */
async function place(request: WorktreeRequest, commit: string, refValues: Set<string>, cancellable: boolean): Promise<void> {
  const { repo, sandboxPath, ref, signal } = request;
  const add = ['worktree', 'add', '--quiet', '--detach', '--lock', '--reason', `Bindery sandbox of plan ${request.planId}`, ...(cancellable ? ['--no-checkout'] : []), sandboxPath, commit];
  const checkout = async (): Promise<void> => {
    await git('worktree add', add, { cwd: repo });
    if (!cancellable) return;
    throwIfCancelled(signal);
    await git('checkout (sandbox)', ['reset', '--hard', '--quiet', '--no-recurse-submodules'], { cwd: sandboxPath, signal, optionalLocks: true });
  };
  const [checkedOut, pinned] = await Promise.allSettled([checkout(), git('update-ref', ['update-ref', ref, commit, ''], { cwd: repo })]);
  if (pinned.status === 'fulfilled') refValues.add(commit);
  if (checkedOut.status === 'rejected') throw checkedOut.reason;
  if (pinned.status === 'rejected') throw pinned.reason;
}

/**
 * Gives the sandbox the original's own bytes where git's filters (line endings, `ident`) made the
 * checkout of a changed or untracked file differ in size from it: an LF file under `eol=crlf`
 * would start the tool from CRLF. git sees the same content either way. Folders whose names are
 * not UTF-8 are not walked (their files keep git's checkout).
 */
async function keepOriginalBytes(repo: string, sandboxPath: string, changed: readonly string[]): Promise<void> {
  const files: string[] = [];
  for (const rel of changed) {
    if (!rel.endsWith('/')) files.push(rel);
    else if (!hasEscapes(rel)) walkSync(path.join(repo, rel), (inner) => files.push(`${rel}${inner}`));
  }
  for (const rel of files) {
    const [mine, theirs] = [inRoot(repo, rel), inRoot(sandboxPath, rel)].map((at) => fsSync.lstatSync(at, { throwIfNoEntry: false }));
    if (mine?.isFile() && theirs?.isFile() && mine.size !== theirs.size) await fs.copyFile(inRoot(repo, rel), inRoot(sandboxPath, rel));
  }
}

/** Moves a fresh worktree sandbox (nothing in it is anyone's work yet) and its ref from `from` to `to`. */
async function moveTo(request: WorktreeRequest, from: string, to: string, refValues: Set<string>): Promise<void> {
  const { repo, sandboxPath, ref, signal } = request;
  const outcomes = await Promise.allSettled([
    git('checkout (sandbox)', ['checkout', '--quiet', '--force', '--detach', '--no-recurse-submodules', to], { cwd: sandboxPath, signal, optionalLocks: true }),
    git('update-ref', ['update-ref', ref, to, from], { cwd: repo }).then(() => refValues.add(to)),
  ]);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Removes whatever a failed or cancelled provisioning made: the worktree, and the ref while it
 * holds a value this provisioning gave it (so a ref that was there before stays). Waits for the
 * early checkout first, whatever it reported: it may have done its work before it failed.
 */
async function undo(request: WorktreeRequest, early: Promise<void> | null, refValues: ReadonlySet<string>): Promise<void> {
  const { repo, sandboxPath, ref } = request;
  await early?.catch(() => undefined);
  const admin = adminFolderOf(sandboxPath);
  await removeWorktree(repo, sandboxPath, null).catch(() => undefined);
  // When git could not remove it (say, a checkout was stopped mid-way), the folder it made for this
  // sandbox goes all the same: it holds nothing but this sandbox's bookkeeping.
  if (admin) fsSync.rmSync(admin, { recursive: true, force: true });
  for (const value of refValues) await git('update-ref -d', ['update-ref', '-d', ref, value], { cwd: repo, okCodes: [0, 1] }).catch(() => undefined);
}

/** The admin folder (`<git dir>/worktrees/<name>`) a worktree sandbox's `.git` file points at, or null. */
function adminFolderOf(sandboxPath: string): string | null {
  let pointer: string;
  try {
    pointer = fsSync.readFileSync(path.join(sandboxPath, '.git'), 'utf8');
  } catch {
    return null;
  }
  const match = /^gitdir: (.+)$/m.exec(pointer);
  const admin = match ? path.resolve(sandboxPath, match[1]!.trim()) : null;
  return admin && path.basename(path.dirname(admin)) === 'worktrees' ? admin : null;
}

/** The size of the original's index: a cheap measure of how many files a checkout writes. */
function indexBytes(index: string): number {
  return fsSync.statSync(index, { throwIfNoEntry: false })?.size ?? 0;
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError('Provisioning was cancelled; nothing was kept.');
}

/**
 * Removes a worktree sandbox Bindery made (the caller has checked it is ours and confirmed with
 * the user): unlock, remove, prune its admin entry, delete the private ref.
 */
export async function removeWorktree(repo: string, sandboxPath: string, ref: string | null): Promise<void> {
  const repoThere = await fs.stat(repo).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (repoThere) await git('worktree remove', ['worktree', 'remove', '--force', '--force', sandboxPath], { cwd: repo, okCodes: [0, 128] });
  await fs.rm(sandboxPath, { recursive: true, force: true });
  if (repoThere && ref) await git('update-ref -d', ['update-ref', '-d', ref], { cwd: repo, okCodes: [0, 1] });
}
