/**
 * The git_worktree strategy: snapshot the original's working state, pin it under a private ref,
 * and check it out with `git worktree add --detach --lock` into the sandbox folder. Undone
 * completely on failure or cancel, so the original's `.git` is left as it was.
 */
import fs from 'node:fs/promises';
import { git } from '../git.ts';
import { snapshotWorkingState, type OriginalRepo } from '../git-snapshot.ts';
import type { ProvisionProgress } from '../copy-tree.ts';

/** Input of `provisionWorktree`. */
export interface WorktreeRequest {
  repo: string;
  /** What inspectOriginal found. */
  original: OriginalRepo;
  sandboxPath: string;
  /** The private ref that keeps the base reachable, e.g. `refs/bindery/<plan>/<sandbox>`. */
  ref: string;
  planId: string;
  tempDir: string;
  signal?: AbortSignal;
  onProgress?: (progress: ProvisionProgress) => void;
}

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

/** Creates the worktree sandbox; on any failure removes what it made and rethrows. */
export async function provisionWorktree(request: WorktreeRequest): Promise<WorktreeResult> {
  const { repo, sandboxPath, ref, signal, onProgress } = request;
  onProgress?.({ phase: 'snapshot', done: 0, total: 1 });
  const snapshot = await snapshotWorkingState(repo, request.original, request.tempDir, `Bindery: working state of ${repo} for plan ${request.planId}`, signal);
  onProgress?.({ phase: 'checkout', done: 0, total: 1 });
  // The ref and the checkout do not depend on each other (the worktree's own HEAD keeps the base
  // reachable meanwhile), so they run side by side, the longer one started first; whatever either
  // made is undone if one fails.
  const outcomes = await Promise.allSettled([
    git('worktree add', ['worktree', 'add', '--quiet', '--detach', '--lock', '--reason', `Bindery sandbox of plan ${request.planId}`, sandboxPath, snapshot.commit], {
      cwd: repo,
      signal,
    }),
    git('update-ref', ['update-ref', ref, snapshot.commit, ''], { cwd: repo, signal }),
  ]);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) {
    // Either may have done its work before a cancel stopped it, so both are undone whatever they
    // reported (the ref only while it holds this base).
    await removeWorktree(repo, sandboxPath, null).catch(() => undefined);
    await git('update-ref -d', ['update-ref', '-d', ref, snapshot.commit], { cwd: repo, okCodes: [0, 1] }).catch(() => undefined);
    throw failed.reason;
  }
  onProgress?.({ phase: 'finishing', done: 1, total: 1 });
  return { baseCommit: snapshot.commit, clean: snapshot.clean, ignoredFiles: snapshot.ignored.sample, ignoredCount: snapshot.ignored.count };
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
