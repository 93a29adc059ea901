/**
 * The git_worktree strategy: snapshot the original's working state, pin it under a private ref,
 * and check it out with `git worktree add --detach --lock` into the sandbox folder. Undone
 * completely on failure or cancel, so the original's `.git` is left as it was.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CancelledError } from '../../../shared/errors.ts';
import { git, gitText, isObjectId } from '../../git/index.ts';
import { hasEscapes, inRoot } from '../fs/index.ts';
import { pruneAddedObjects } from '../discard/index.ts';
import { snapshotWorkingState, startInspection } from '../changes/index.ts';
import { walkSync } from '../fs/index.ts';
import type { ProvisionProgress } from './copy-tree.ts';

/** Input of `provisionWorktree`. */
export interface WorktreeRequest {
  repo: string;
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
 * about a second, and a cancel waits for it (see `Placement.checkOut`).
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
 * The checkout of HEAD starts first: at once when the folder has a `.git` folder of its own (the
 * common case; git resolves HEAD itself), else once the rev-parse that vets the folder has named
 * HEAD. The rev-parse and then the status run beside it, each process costing a fork of this one.
 * A clean original is then done when the status says so, and a dirty one's worktree moves on to
 * the snapshot, which differs from HEAD only where the original does. On any failure everything
 * made is removed and the error rethrown.
 */
export async function provisionWorktree(request: WorktreeRequest): Promise<WorktreeResult | { reason: string }> {
  const { repo, signal, onProgress } = request;
  onProgress?.({ phase: 'snapshot', done: 0, total: 1 });
  // Already cancelled: nothing is started in the user's repository.
  throwIfCancelled(signal);
  const placement = new Placement(request);
  const ownIndex = ownIndexBytes(repo);
  if (ownIndex !== null) placement.checkOut('HEAD', ownIndex, path.join(repo, '.git'));
  const inspection = startInspection(repo, signal);
  try {
    const root = await inspection.root;
    if ('reason' in root) {
      await placement.undo();
      return root;
    }
    // Before the first commit there is nothing to check out yet (an early checkout of HEAD fails, and
    // `settle` checks the snapshot out instead).
    if (root.head !== null) {
      if (!placement.started) placement.checkOut(root.head, indexBytes(root.index));
      placement.pin(root.head);
    }
    const original = await inspection.original();
    if ('reason' in original) {
      await placement.undo();
      return original;
    }
    const snapshot = await snapshotWorkingState(repo, original, request.tempDir, `Bindery: working state of ${repo} for plan ${request.planId}`, signal);
    onProgress?.({ phase: 'checkout', done: 0, total: 1 });
    if (!placement.started) placement.checkOut(snapshot.commit, indexBytes(root.index));
    await placement.settle(snapshot.commit);
    throwIfCancelled(signal);
    if (!snapshot.clean) await keepOriginalBytes(repo, request.sandboxPath, original.changed);
    throwIfCancelled(signal);
    onProgress?.({ phase: 'finishing', done: 1, total: 1 });
    return { baseCommit: snapshot.commit, clean: snapshot.clean, ignoredFiles: snapshot.ignored.sample, ignoredCount: snapshot.ignored.count };
  } catch (error) {
    await placement.undo();
    // Objects a snapshot added for this sandbox go again once no Bindery ref needs them.
    await pruneAddedObjects(repo, request.tempDir).catch(() => undefined);
    throw error;
  }
}

/**
 * What one provisioning has under way or made in the original's `.git`: the worktree's checkout
 * and the private ref. The two do not depend on each other (the worktree's own HEAD keeps its
 * commit reachable meanwhile), so they run side by side, the longer one started first.
 *
 * Steps that write into the user's `.git` (adding the worktree, setting the ref) are never killed:
 * a git stopped there can leave a lock file or half an admin folder behind. A cancel takes effect
 * between steps, and during the checkout proper when it is cancellable (a big index), which writes
 * only into the sandbox and its own admin folder (removed whole by the undo).
 */
class Placement {
  /** The checkout under way, resolving to the commit checked out. */
  private checkout: Promise<string> | null = null;
  /** What the checkout was asked for, and the original's index size that decides whether it can be cancelled. */
  private asked: { commitish: string; indexSize: number } | null = null;
  private pinning: Promise<void> | null = null;
  /** The value the ref holds because of this provisioning. */
  private pinned: string | null = null;

  constructor(private readonly request: WorktreeRequest) {}

  /** Whether a checkout was started (and not undone). */
  get started(): boolean {
    return this.checkout !== null;
  }

  /**
   * Starts checking `commitish` out into the sandbox; an original index of `indexSize` bytes makes
   * it cancellable past the limit. With `gitDir` (the folder's own `.git`, before anything vetted
   * it), git uses that repository or none: a `.git` folder that is not one (empty, half cloned)
   * must not lead it to a repository around the folder, and the rev-parse then says what is wrong.
   */
  checkOut(commitish: string, indexSize: number, gitDir?: string): void {
    const { repo, sandboxPath, signal, planId } = this.request;
    // Nothing new is started in the user's repository once cancelled.
    throwIfCancelled(signal);
    const cancellable = indexSize >= (this.request.cancellableFromIndexBytes ?? CANCELLABLE_FROM_INDEX_BYTES);
    // Absolute paths in the admin files, whatever the user's config says: a relative one would also write an extension into their config.
    const add = [...(gitDir ? [`--git-dir=${gitDir}`] : []), '-c', 'worktree.useRelativePaths=false', 'worktree', 'add', '--quiet', '--detach', '--lock', '--reason', `Bindery sandbox of plan ${planId}`];
    add.push(...(cancellable ? ['--no-checkout'] : []), sandboxPath, commitish);
    this.asked = { commitish, indexSize };
    this.checkout = (async () => {
      await git('worktree add', add, { cwd: repo });
      if (cancellable) {
        throwIfCancelled(signal);
        await git('checkout (sandbox)', ['reset', '--hard', '--quiet', '--no-recurse-submodules'], { cwd: sandboxPath, signal, optionalLocks: true });
      }
      return isObjectId(commitish) ? commitish : checkedOutCommit(sandboxPath);
    })();
    // Awaited by `settle` or the undo; until then a failure must not count as unhandled.
    this.checkout.catch(() => undefined);
  }

  /** Starts pointing the private ref, which must not exist yet, at `commit`. */
  pin(commit: string): void {
    const { repo, ref, signal } = this.request;
    throwIfCancelled(signal);
    this.pinning = git('update-ref', ['update-ref', ref, commit, ''], { cwd: repo }).then(() => {
      this.pinned = commit;
    });
    this.pinning.catch(() => undefined);
  }

  /**
   * Waits for the checkout and the ref (rejecting with the first failure once both have ended),
   * then moves either to `target` where it is elsewhere: HEAD may have moved between git's reading
   * of it and the rev-parse's, and a dirty original's snapshot is not HEAD. Nothing in the fresh
   * sandbox is anyone's work yet.
   */
  async settle(target: string): Promise<void> {
    const { repo, sandboxPath, ref, signal } = this.request;
    const [first, pinned] = await Promise.allSettled([this.checkout!, this.pinning]);
    if (pinned.status === 'rejected') throw pinned.reason;
    let checkedOut = first;
    // A checkout of HEAD started before anything was known can fail where one of the commit cannot:
    // HEAD had no commit yet when git read it (the first commit landed since, or never).
    if (checkedOut.status === 'rejected' && this.asked!.commitish === 'HEAD') {
      throwIfCancelled(signal);
      const { indexSize } = this.asked!;
      await this.removeCheckout();
      this.checkOut(target, indexSize);
      [checkedOut] = await Promise.allSettled([this.checkout!]);
    }
    if (checkedOut.status === 'rejected') throw checkedOut.reason;
    const moves: Array<Promise<unknown>> = [];
    if (checkedOut.value !== target) {
      moves.push(git('checkout (sandbox)', ['checkout', '--quiet', '--force', '--detach', '--no-recurse-submodules', target], { cwd: sandboxPath, signal, optionalLocks: true }));
    }
    if (this.pinned !== target) {
      const from = this.pinned ?? '';
      moves.push(git('update-ref', ['update-ref', ref, target, from], { cwd: repo }).then(() => (this.pinned = target)));
    }
    const failed = (await Promise.allSettled(moves)).find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Removes whatever was made: the worktree, and the ref while it holds the value given here (so a
   * ref that was there before stays). Waits for what is under way first, whatever it reported: it
   * may have done its work before it failed.
   */
  async undo(): Promise<void> {
    const { repo, ref } = this.request;
    await Promise.allSettled([this.checkout, this.pinning]);
    if (this.checkout) await this.removeCheckout();
    if (this.pinned !== null) await git('update-ref -d', ['update-ref', '-d', ref, this.pinned], { cwd: repo, okCodes: [0, 1] }).catch(() => undefined);
    this.pinning = this.pinned = null;
  }

  /** Removes the worktree of the checkout (which has ended), whatever it got to. */
  private async removeCheckout(): Promise<void> {
    const { repo, sandboxPath } = this.request;
    const admin = adminFolderOf(sandboxPath);
    await removeWorktree(repo, sandboxPath, null).catch(() => undefined);
    // When git could not remove it (say, a checkout was stopped mid-way), the folder it made for this
    // sandbox goes all the same: it holds nothing but this sandbox's bookkeeping.
    if (admin) fsSync.rmSync(admin, { recursive: true, force: true });
    this.checkout = this.asked = null;
  }
}

/**
 * The commit a fresh worktree sandbox has checked out: its HEAD file names it (a detached HEAD in
 * git's files backend); anything else (the reftable backend) is asked of git.
 */
async function checkedOutCommit(sandboxPath: string): Promise<string> {
  const admin = adminFolderOf(sandboxPath);
  const head = admin ? fsSync.readFileSync(path.join(admin, 'HEAD'), 'utf8').trim() : undefined;
  if (isObjectId(head)) return head;
  return gitText('rev-parse', ['rev-parse', '--verify', '--end-of-options', 'HEAD^{commit}'], { cwd: sandboxPath });
}

/** The size of `<repo>/.git/index` (0 when there is none) when `.git` is a folder; null otherwise (a linked worktree or submodule, or no repository). */
function ownIndexBytes(repo: string): number | null {
  if (!fsSync.lstatSync(path.join(repo, '.git'), { throwIfNoEntry: false })?.isDirectory()) return null;
  return indexBytes(path.join(repo, '.git', 'index'));
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
