/**
 * Discard (DESIGN 2.4): counts first and a confirmation when there are changes; "unknown is not
 * clean" (no discard without force when changes cannot be determined); the changes go to the
 * trash, never straight to deletion; only a registered, marked folder under the root is removed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { ConflictError } from '../../../shared/errors.ts';
import { makeFoldersWritable, makeReadOnly } from '../provision/index.ts';
import { countChanges, detectChanges } from '../changes/index.ts';
import { forgetListing } from '../changes/index.ts';
import { logEvent, type EngineContext } from '../context.ts';
import { git } from '../../git/index.ts';
import { assertDeletable, metaDir } from '../provision/index.ts';
import type { ChangeCountsInfo, ChangedFile, SandboxInfo, TrashItem } from '../../../shared/dto.ts';
import { removeSandboxFiles, removeWorktreeSandbox } from '../provision/index.ts';
import { baseRefFor } from '../provision/index.ts';
import { copyIgnored, ignoredFiles, type IgnoredFiles } from './ignored.ts';
import { packSnapshot, pruneAddedObjects } from './git-objects.ts';
import { dropUnservedBackups } from './trash.ts';
import { keepCheckpoints, removeCheckpoints } from './trash-checkpoints.ts';
import { copyEntry, copyInto, DISCARDING_FLAG, SNAPSHOT_PACK, emptyFolders, exists, moveDir, removeTree, REMOVING_FLAG, setFlag, writeTrashRecord, type TrashRecord } from './trash-files.ts';

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
  | { kind: 'ready'; sandboxId: string; counts: ChangeCountsInfo }
  | { kind: 'needs_confirmation'; sandboxId: string; resourceName: string; counts: ChangeCountsInfo }
  | { kind: 'unknown'; sandboxId: string; resourceName: string; reason: string }
  | { kind: 'discarded'; sandboxId: string; counts: ChangeCountsInfo | null; trashId: string | null };

/** Discards one sandbox, or says what it needs first. */
export async function discardSandbox(context: EngineContext, sandbox: SandboxInfo, options: DiscardOptions): Promise<DiscardOutcome> {
  if (sandbox.status === 'discarded') throw new ConflictError(`The sandbox of ${sandbox.resourceName} was already discarded.`, { sandboxId: sandbox.id });
  // A missing or failed sandbox whose folder is back again is discarded like a live one: checked, confirmed, trashed.
  const away = sandbox.strategy !== 'none' && (sandbox.status === 'missing' || sandbox.status === 'failed') && !(await exists(sandbox.path));
  let changes: ChangedFile[] | null = null;
  let ignored: IgnoredFiles = { paths: [], count: 0 };
  let unknownReason: string | null = null;
  if (sandbox.strategy === 'none' || away) changes = [];
  else {
    try {
      // detectChanges refuses a missing sandbox; one whose folder is back is looked at as a live one.
      const [found, ignoredHere] = await Promise.all([
        detectChanges({ ...sandbox, status: sandbox.status === 'missing' ? 'ready' : sandbox.status }, context.layout.tempDir),
        sandbox.strategy === 'git_worktree' ? ignoredFiles(sandbox.path) : ignored,
      ]);
      [changes, ignored] = [found.changes, ignoredHere];
    } catch (error) {
      unknownReason = `its changes could not be determined (${(error as Error).message})`;
    }
  }
  const counts = changes ? withIgnored(countChanges(changes), ignored.count) : null;
  if (!changes && !options.force) return { kind: 'unknown', sandboxId: sandbox.id, resourceName: sandbox.resourceName, reason: unknownReason ?? 'unknown' };
  if (counts && counts.total + (counts.ignored ?? 0) > 0 && !options.yes) return { kind: 'needs_confirmation', sandboxId: sandbox.id, resourceName: sandbox.resourceName, counts };
  if (options.dryRun) return { kind: 'ready', sandboxId: sandbox.id, counts: counts ?? countChanges([]) };

  let trashId: string | null = null;
  if (away) {
    await removeCheckpoints(context, sandbox, null);
    if (sandbox.strategy === 'git_worktree') {
      await forgetWorktree(sandbox);
      await pruneAddedObjects(sandbox.originalPath, context.layout.tempDir).catch(() => undefined);
    }
  } else if (sandbox.strategy !== 'none') {
    await assertDeletable(context.layout.root, sandbox);
    if (!changes || changes.length > 0 || ignored.paths.length > 0) trashId = await toTrash(context, sandbox, changes, counts, ignored.paths);
    else {
      // Nothing to keep (all committed, say): its run checkpoints go too, before the prune.
      await removeCheckpoints(context, sandbox, null);
      await removeFolder(context, sandbox);
    }
  }
  // With a trash entry, finishDiscard recorded the discard (and its activity line) together with the entry.
  if (!trashId) markDiscarded(context, sandbox, context.now(), `Discarded the sandbox of ${sandbox.resourceName}.`);
  // Without a trash entry nothing can bring its commits back, so their undo (and backups) ends here.
  if (!trashId) await dropUnservedBackups(context).catch(() => undefined);
  // A sandbox made again for the plan keeps this id: it must not be read against this one's bases.
  forgetListing(sandbox.id);
  context.emit({ type: 'status', planId: sandbox.planId, sandboxId: sandbox.id, status: 'discarded' });
  return { kind: 'discarded', sandboxId: sandbox.id, counts, trashId };
}

async function removeFolder(context: EngineContext, sandbox: SandboxInfo): Promise<void> {
  if (sandbox.strategy !== 'git_worktree') return removeSandboxFiles(sandbox.path);
  await removeWorktreeSandbox(sandbox.originalPath, sandbox.path, sandbox.baseRef);
  await pruneAddedObjects(sandbox.originalPath, context.layout.tempDir).catch(() => undefined);
}

/**
 * Drops the git bookkeeping of a worktree sandbox whose folder is away (its worktree entry and
 * private ref) and removes nothing on disk. Unlocked and removed without force, git refuses
 * should the folder come back with work in it meanwhile.
 */
async function forgetWorktree(sandbox: SandboxInfo): Promise<void> {
  const options = { cwd: sandbox.originalPath, okCodes: [0, 128] };
  await git('worktree unlock', ['worktree', 'unlock', sandbox.path], options).catch(() => undefined);
  await git('worktree remove', ['worktree', 'remove', sandbox.path], options).catch(() => undefined);
  const ref = sandbox.baseRef ?? baseRefFor(sandbox.planId, sandbox.id);
  await git('update-ref -d', ['update-ref', '-d', ref], { cwd: sandbox.originalPath, okCodes: [0, 1] }).catch(() => undefined);
}

/**
 * Moves a sandbox's changes into `<trash>/<id>`: a copied sandbox moves whole (with its manifest);
 * a worktree keeps its changed files and the list of deletions (its whole tree when the changes
 * are unknown), then the worktree is removed. `entry.json` and a flag come first, and `files`
 * appears only once complete, so recovery at start can tell how far a killed discard got.
 */
async function toTrash(context: EngineContext, sandbox: SandboxInfo, changes: ChangedFile[] | null, counts: ChangeCountsInfo | null, ignored: string[]): Promise<string> {
  const id = ulid();
  const trashPath = path.join(context.layout.trashDir, id);
  const files = path.join(trashPath, 'files');
  const worktree = sandbox.strategy === 'git_worktree';
  const now = new Date(context.now());
  const entry: TrashItem = {
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
  const rootMode = worktree ? null : (await fs.stat(sandbox.path)).mode & 0o7777;
  const emptyDirs = worktree && changes ? await emptyFolders(sandbox.path, ['.git']) : [];
  const record: TrashRecord = { entry, sandbox, changes, whole: worktree && !changes, emptyDirs, rootMode, ignored };
  await makeFlaggedFolder(context, trashPath);
  // A worktree, or a copy copied across filesystems, stays whole where it was until finishDiscard begins removing it.
  let whole = worktree;
  try {
    await writeTrashRecord(trashPath, record);
    if (worktree) {
      // A snapshot base's own objects are kept too: they leave the user's repository with the last Bindery ref.
      // Without it (git failed) a restore still works while the objects last, and the changed files are kept either way.
      const pack = sandbox.baseCommit ? await packSnapshot(sandbox.originalPath, sandbox.baseCommit).catch(() => null) : null;
      if (pack) await fs.writeFile(path.join(trashPath, SNAPSHOT_PACK), pack);
      await keepCheckpoints(context, sandbox, trashPath);
      await keepWorktreeFiles(sandbox.path, changes, ignored, trashPath);
    }
    else {
      await keepCheckpoints(context, sandbox, trashPath);
      // Moving a folder to another parent needs its own write bit (its ".." changes); read_only cleared it.
      await fs.chmod(sandbox.path, (rootMode as number) | 0o200);
      whole = await moveDir(sandbox.path, files, { keepSource: true });
    }
    await finishDiscard(context, record);
  } catch (error) {
    // Until `files` is complete, or while a sandbox still whole has not begun to be removed, the half-made entry goes.
    if (!(await exists(files)) || (whole && !(await exists(path.join(trashPath, REMOVING_FLAG))))) {
      await putBack(sandbox, rootMode);
      await removeTree(trashPath);
    }
    throw error;
  }
  return id;
}

/**
 * Makes the entry's folder with its discarding flag already in it: made and flagged in the temp
 * folder, then renamed into the trash, since recovery (in any process, at any start) removes a
 * trash folder without a flag as one a killed discard left.
 */
async function makeFlaggedFolder(context: EngineContext, trashPath: string): Promise<void> {
  await fs.mkdir(context.layout.tempDir, { recursive: true });
  await fs.mkdir(path.dirname(trashPath), { recursive: true });
  const making = await fs.mkdtemp(path.join(context.layout.tempDir, 'trash-'));
  try {
    await setFlag(making, DISCARDING_FLAG);
    await fs.rename(making, trashPath);
  } catch (error) {
    await fs.rm(making, { recursive: true, force: true });
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    // A temp folder on another filesystem (mounted apart): made in place, as before, for a short unflagged moment.
    await fs.mkdir(trashPath);
    await setFlag(trashPath, DISCARDING_FLAG);
  }
}

async function keepWorktreeFiles(sandboxPath: string, changes: ChangedFile[] | null, ignored: string[], trashPath: string): Promise<void> {
  const partial = path.join(trashPath, 'files.partial');
  // Made once and never again: should the entry folder vanish meanwhile, the copy fails instead of making it anew.
  await fs.mkdir(partial);
  if (changes) {
    for (const change of changes) {
      if (change.newType !== null) await copyEntry(sandboxPath, partial, change.path);
    }
    await copyIgnored(sandboxPath, partial, ignored);
  } else await copyInto(sandboxPath, partial, ['.git']);
  await fs.rename(partial, path.join(trashPath, 'files'));
}

/**
 * Second half of a discard, once the sandbox's files are complete in the trash (also run by
 * recovery for a discard killed mid-way): removes what is left of the sandbox, then records the
 * trash entry and the discarded status together. The `removing` flag is set just before the
 * first deletion, so recovery can tell a sandbox still whole from one partly removed.
 */
export async function finishDiscard(context: EngineContext, record: TrashRecord): Promise<void> {
  const { sandbox, entry } = record;
  const present = await exists(sandbox.path);
  if (present) {
    await assertDeletable(context.layout.root, sandbox);
    await makeFoldersWritable(sandbox.path);
  }
  await setFlag(entry.trashPath, REMOVING_FLAG);
  await removeCheckpoints(context, sandbox, entry.trashPath);
  if (sandbox.strategy === 'git_worktree') await removeWorktreeSandbox(sandbox.originalPath, sandbox.path, sandbox.baseRef);
  else {
    if (present) await fs.rm(sandbox.path, { recursive: true, force: true });
    const meta = path.join(entry.trashPath, 'meta');
    // `meta` appears only once complete: what is left beside the sandbox is then a copy's source, not yet removed.
    if (await exists(metaDir(sandbox.path))) {
      if (await exists(meta)) await removeTree(metaDir(sandbox.path));
      else await moveDir(metaDir(sandbox.path), meta);
    }
    await fs.rmdir(path.dirname(sandbox.path)).catch(() => undefined);
  }
  const counts = record.changes ? entry.counts : null;
  const what = counts ? `${counts.total} change(s)${counts.ignored ? ` and ${counts.ignored} ignored file(s)` : ''} are` : 'whole folder (its changes could not be determined) is';
  context.store.transaction(() => {
    context.store.insertTrash(entry);
    markDiscarded(context, sandbox, entry.createdAt, `Discarded the sandbox of ${sandbox.resourceName}. Its ${what} in the trash (${entry.id}) for ${context.trashDays} days.`);
  });
  await fs.rm(path.join(entry.trashPath, REMOVING_FLAG), { force: true });
  await fs.rm(path.join(entry.trashPath, DISCARDING_FLAG), { force: true });
  if (sandbox.strategy === 'git_worktree') await pruneAddedObjects(sandbox.originalPath, context.layout.tempDir).catch(() => undefined);
}

/** Counts with the ignored files a worktree's discard also keeps, when there are any. */
function withIgnored(counts: ChangeCountsInfo, ignored: number): ChangeCountsInfo {
  return ignored > 0 ? { ...counts, ignored } : counts;
}

/**
 * Records a sandbox as discarded, with its activity line in the same transaction (a crash cannot
 * keep one without the other); its commits stop counting as its own until its trash entry made
 * `at` is restored (see forgetCommittedStates).
 */
function markDiscarded(context: EngineContext, sandbox: SandboxInfo, at: string, message: string): void {
  context.store.transaction(() => {
    context.store.setStatus(sandbox.id, 'discarded', context.now());
    context.store.forgetCommittedStates(sandbox.id, at);
    // Its run checkpoints went with it (kept in its trash entry, if any: a restore records them again).
    context.store.forgetCheckpoints(sandbox.id);
    logEvent(context, 'sandbox.discarded', sandbox.planId, sandbox.id, message);
  });
}

/**
 * Leaves a sandbox whose discard did not go through as it was: its folder's mode, and a read_only
 * one without write bits again (finishDiscard may have made its folders writable before it stopped).
 */
export async function putBack(sandbox: SandboxInfo, rootMode: number | null | undefined): Promise<void> {
  if (rootMode != null) await fs.chmod(sandbox.path, rootMode).catch(() => undefined);
  if (sandbox.access === 'read_only') await makeReadOnly(sandbox.path).catch(() => undefined);
}
