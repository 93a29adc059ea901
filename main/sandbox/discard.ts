/**
 * Discard (DESIGN 2.4): counts first and a confirmation when there are changes; "unknown is not
 * clean" (no discard without force when changes cannot be determined); the changes go to the
 * trash, never straight to deletion; only a registered, marked folder under the root is removed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { ConflictError } from '../../shared/errors.ts';
import { setSandboxStatus } from '../registry/sandboxes.ts';
import { insertTrash } from '../registry/trash.ts';
import { countChanges, detectChanges } from './changes.ts';
import { logEvent, type EngineContext } from './engine-context.ts';
import { inRoot } from './fs-path.ts';
import { assertDeletable, metaDir } from './layout.ts';
import type { ChangeCounts, FileChange, SandboxRecord, TrashEntry } from './model.ts';
import { removeSandboxFiles, removeWorktreeSandbox } from './provision.ts';
import { baseRefFor } from './strategies/git-worktree.ts';
import { copyEntry, moveDir } from './trash-files.ts';

/** Options of a discard. */
export interface DiscardOptions {
  /** The user confirmed discarding changes (the CLI's --yes). */
  yes?: boolean;
  /** Discard even when the changes cannot be determined. */
  force?: boolean;
  /** Check only: report what a discard would need, remove nothing. */
  dryRun?: boolean;
}

/** What a discard did or needs. */
export type DiscardOutcome =
  | { kind: 'ready'; sandboxId: string; counts: ChangeCounts }
  | { kind: 'needs_confirmation'; sandboxId: string; resourceName: string; counts: ChangeCounts }
  | { kind: 'unknown'; sandboxId: string; resourceName: string; reason: string }
  | { kind: 'discarded'; sandboxId: string; counts: ChangeCounts | null; trashId: string | null };

/** Discards one sandbox, or says what it needs first. */
export async function discardSandbox(context: EngineContext, sandbox: SandboxRecord, options: DiscardOptions): Promise<DiscardOutcome> {
  if (sandbox.status === 'discarded') throw new ConflictError(`The sandbox of ${sandbox.resourceName} was already discarded.`, { sandboxId: sandbox.id });
  let changes: FileChange[] | null = null;
  let unknownReason: string | null = null;
  if (sandbox.strategy === 'none' || sandbox.status === 'missing' || sandbox.status === 'failed') changes = [];
  else {
    try {
      changes = (await detectChanges(sandbox, context.layout.tempDir)).changes;
    } catch (error) {
      unknownReason = `its changes could not be determined (${(error as Error).message})`;
    }
  }
  const counts = changes ? countChanges(changes) : null;
  if (!changes && !options.force) return { kind: 'unknown', sandboxId: sandbox.id, resourceName: sandbox.resourceName, reason: unknownReason ?? 'unknown' };
  if (counts && counts.total > 0 && !options.yes) return { kind: 'needs_confirmation', sandboxId: sandbox.id, resourceName: sandbox.resourceName, counts };
  if (options.dryRun) return { kind: 'ready', sandboxId: sandbox.id, counts: counts ?? countChanges([]) };

  let trashId: string | null = null;
  if (sandbox.strategy !== 'none' && sandbox.status !== 'missing' && sandbox.status !== 'failed') {
    await assertDeletable(context.layout.root, sandbox);
    if (!changes || changes.length > 0) trashId = await toTrash(context, sandbox, changes, counts);
    else await removeFolder(sandbox);
  } else if (sandbox.strategy === 'git_worktree') {
    await removeWorktreeSandbox(sandbox.originalPath, sandbox.path, sandbox.baseRef ?? baseRefFor(sandbox.planId, sandbox.id)).catch(() => undefined);
  }
  setSandboxStatus(context.db, sandbox.id, 'discarded', context.now());
  const kept = trashId ? ` Its ${counts ? counts.total : 'unknown'} change(s) are in the trash (${trashId}) for ${context.trashDays} days.` : '';
  logEvent(context, 'sandbox.discarded', sandbox.planId, sandbox.id, `Discarded the sandbox of ${sandbox.resourceName}.${kept}`);
  context.emit({ type: 'status', planId: sandbox.planId, sandboxId: sandbox.id, status: 'discarded' });
  return { kind: 'discarded', sandboxId: sandbox.id, counts, trashId };
}

async function removeFolder(sandbox: SandboxRecord): Promise<void> {
  if (sandbox.strategy === 'git_worktree') await removeWorktreeSandbox(sandbox.originalPath, sandbox.path, sandbox.baseRef);
  else await removeSandboxFiles(sandbox.path);
}

/**
 * Moves a sandbox's changes into `<trash>/<id>`: a copied sandbox moves whole (with its manifest);
 * a worktree keeps its changed files and the list of deletions, then the worktree is removed.
 */
async function toTrash(context: EngineContext, sandbox: SandboxRecord, changes: FileChange[] | null, counts: ChangeCounts | null): Promise<string> {
  const id = ulid();
  const trashPath = path.join(context.layout.trashDir, id);
  const files = path.join(trashPath, 'files');
  await fs.mkdir(trashPath, { recursive: true });
  if (sandbox.strategy === 'git_worktree') {
    await fs.mkdir(files);
    for (const change of changes ?? []) {
      if (change.newType === null) continue;
      await copyEntry(inRoot(sandbox.path, change.path), inRoot(files, change.path));
    }
  } else {
    await moveDir(sandbox.path, files);
    await moveDir(metaDir(sandbox.path), path.join(trashPath, 'meta'));
  }
  await fs.writeFile(path.join(trashPath, 'entry.json'), JSON.stringify({ sandbox, changes }));
  const now = new Date(context.now());
  const entry: TrashEntry = {
    id,
    sandboxId: sandbox.id,
    planId: sandbox.planId,
    resourceName: sandbox.resourceName,
    originalPath: sandbox.originalPath,
    sandboxPath: sandbox.path,
    strategy: sandbox.strategy,
    trashPath,
    counts: counts ?? countChanges([]),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + context.trashDays * 86_400_000).toISOString(),
    restoredAt: null,
  };
  insertTrash(context.db, entry);
  if (sandbox.strategy === 'git_worktree') await removeWorktreeSandbox(sandbox.originalPath, sandbox.path, sandbox.baseRef);
  else await fs.rmdir(path.dirname(sandbox.path)).catch(() => undefined);
  return id;
}
