/**
 * Provisioning one sandbox with its effective strategy: git_worktree (falling back to
 * copy_on_write with the reason), copy_on_write, an empty folder for write_only, or none (in
 * place). A failed or cancelled provision removes everything it created.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AccessMode, SandboxStrategy } from '../../../shared/model.ts';
import { CancelledError } from '../../../shared/errors.ts';
import { makeFoldersWritable, makeReadOnly } from './access.ts';
import type { ProvisionProgress, SkippedEntry } from './copy-tree.ts';
import { metaDir } from './layout.ts';
import { writeBaseline } from '../changes/index.ts';
import type { CopyMethod } from '../../../shared/dto.ts';
import { provisionCopy, provisionEmpty } from './copy-on-write.ts';
import { baseRefFor, provisionWorktree, removeWorktree } from './git-worktree.ts';

/** What to provision. */
export interface ProvisionRequest {
  sandboxId: string;
  planId: string;
  originalPath: string;
  sandboxPath: string;
  strategy: SandboxStrategy;
  access: AccessMode;
  tempDir: string;
  signal?: AbortSignal;
  onProgress?: (progress: ProvisionProgress) => void;
}

/** How it was provisioned. */
export interface ProvisionOutcome {
  strategy: SandboxStrategy;
  copyMethod: CopyMethod | null;
  fallbackReason: string | null;
  baseRef: string | null;
  baseCommit: string | null;
  /** What was not carried over: a worktree's ignored files, or a copy's special files (see notCopied). */
  ignoredFiles: string[];
  ignoredCount: number;
}

const NOTHING: Omit<ProvisionOutcome, 'strategy'> = {
  copyMethod: null,
  fallbackReason: null,
  baseRef: null,
  baseCommit: null,
  ignoredFiles: [],
  ignoredCount: 0,
};

/** Creates the sandbox folder (the metadata folder with its marker must already exist). */
export async function provision(request: ProvisionRequest): Promise<ProvisionOutcome> {
  if (request.strategy === 'none') return { ...NOTHING, strategy: 'none' };
  const meta = metaDir(request.sandboxPath);
  const copyOptions = { signal: request.signal, onProgress: request.onProgress };
  let outcome: ProvisionOutcome | undefined;
  try {
    if (request.access === 'write_only') {
      await provisionEmpty(request.sandboxPath, meta);
      const fallbackReason = request.strategy === 'git_worktree' ? 'write_only sandboxes start empty, so no worktree was made' : null;
      outcome = { ...NOTHING, strategy: 'copy_on_write', fallbackReason };
    } else if (request.strategy === 'git_worktree') {
      outcome = await worktreeOrCopy(request, meta, copyOptions);
    } else {
      const copied = await provisionCopy(request.originalPath, request.sandboxPath, meta, copyOptions);
      outcome = { ...NOTHING, strategy: 'copy_on_write', copyMethod: copied.copyMethod, ...notCopied(copied.skipped) };
    }
    if (request.access === 'read_only') await makeReadOnly(request.sandboxPath);
    if (outcome.strategy === 'copy_on_write') writeBaseline(meta);
    return outcome;
  } catch (error) {
    // A worktree made before a later step failed goes through git, so the original's .git keeps no entry or ref of it.
    if (outcome?.strategy === 'git_worktree') await removeWorktreeSandbox(request.originalPath, request.sandboxPath, outcome.baseRef).catch(() => undefined);
    await removeSandboxFiles(request.sandboxPath);
    throw request.signal?.aborted && !(error instanceof CancelledError) ? new CancelledError('Provisioning was cancelled; nothing was kept.') : error;
  }
}

async function worktreeOrCopy(request: ProvisionRequest, meta: string, copyOptions: Parameters<typeof provisionCopy>[3]): Promise<ProvisionOutcome> {
  const ref = baseRefFor(request.planId, request.sandboxId);
  let reason: string;
  try {
    const made = await provisionWorktree({ repo: request.originalPath, sandboxPath: request.sandboxPath, ref, planId: request.planId, tempDir: request.tempDir, ...copyOptions });
    if (!('reason' in made)) {
      return { ...NOTHING, strategy: 'git_worktree', baseRef: ref, baseCommit: made.baseCommit, ignoredFiles: made.ignoredFiles, ignoredCount: made.ignoredCount };
    }
    reason = made.reason;
  } catch (error) {
    if (error instanceof CancelledError || request.signal?.aborted) throw error;
    reason = `git worktree could not be made (${(error as Error).message})`;
    await fs.rm(request.sandboxPath, { recursive: true, force: true });
  }
  const copied = await provisionCopy(request.originalPath, request.sandboxPath, meta, copyOptions);
  return { ...NOTHING, strategy: 'copy_on_write', copyMethod: copied.copyMethod, fallbackReason: `${reason}; copied instead`, ...notCopied(copied.skipped) };
}

/** How many special files a copy's note lists by name; the count says how many there were. */
const NOT_COPIED_SAMPLE = 100;

/**
 * The special files a copy left out, for the sandbox's note of what was not carried over (where a
 * worktree lists ignored files): each as "path (FIFO)", so no pipe or socket is dropped silently.
 */
export function notCopied(skipped: SkippedEntry[]): Pick<ProvisionOutcome, 'ignoredFiles' | 'ignoredCount'> {
  return { ignoredFiles: skipped.slice(0, NOT_COPIED_SAMPLE).map((entry) => `${entry.rel} (${entry.kind})`), ignoredCount: skipped.length };
}

/** Removes a sandbox folder and its metadata, and the plan folder when it is left empty. */
export async function removeSandboxFiles(sandboxPath: string): Promise<void> {
  await makeFoldersWritable(sandboxPath);
  await fs.rm(sandboxPath, { recursive: true, force: true });
  await fs.rm(metaDir(sandboxPath), { recursive: true, force: true });
  await fs.rmdir(path.dirname(sandboxPath)).catch(() => undefined);
}

/** Removes a git_worktree sandbox through git (its admin entry and private ref too), then its metadata. */
export async function removeWorktreeSandbox(originalPath: string, sandboxPath: string, baseRef: string | null): Promise<void> {
  await makeFoldersWritable(sandboxPath);
  await removeWorktree(originalPath, sandboxPath, baseRef);
  await removeSandboxFiles(sandboxPath);
}
