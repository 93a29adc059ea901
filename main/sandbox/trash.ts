/**
 * The trash of discarded sandboxes: list, restore (the sandbox comes back as it was, registered
 * and reviewable again) and purge (entries past their date, or all). Only folders under the
 * trash folder are ever deleted.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConflictError, NotFoundError, UnsafePathError } from '../../shared/errors.ts';
import { getSandbox, saveSandbox } from '../registry/sandboxes.ts';
import { getTrash, listTrash, markTrashPurged, markTrashRestored } from '../registry/trash.ts';
import { makeFoldersWritable, makeReadOnly } from './access.ts';
import { logEvent, type EngineContext } from './engine-context.ts';
import { inRoot } from './fs-path.ts';
import { git } from './git.ts';
import { isStrictlyInside, metaDir, writeMarker } from './layout.ts';
import type { FileChange, SandboxRecord, TrashEntry } from './model.ts';
import { removeWorktreeSandbox } from './provision.ts';
import { copyEntry, moveDir } from './trash-files.ts';

/** Entries still recoverable, newest first. */
export function listTrashEntries(context: EngineContext): TrashEntry[] {
  return listTrash(context.db);
}

/** Restores a trash entry into its sandbox folder and marks the sandbox ready again. */
export async function restoreTrash(context: EngineContext, id: string): Promise<SandboxRecord> {
  const entry = getTrash(context.db, id);
  if (!entry) throw new NotFoundError(`There is no trash entry "${id}": see "bindery trash list".`, { id });
  const sandbox = getSandbox(context.db, entry.sandboxId);
  if (!sandbox || sandbox.status !== 'discarded') {
    throw new ConflictError(
      `The sandbox of ${entry.resourceName} in plan ${entry.planId} is live again (provisioned anew), so the trash entry cannot go back in its place. Its files are at ${path.join(entry.trashPath, 'files')}.`,
    );
  }
  const taken = await fs.lstat(sandbox.path).then(
    () => true,
    () => false,
  );
  if (taken) throw new ConflictError(`${sandbox.path} exists already; move it away to restore ${id} there.`);
  await fs.mkdir(path.dirname(sandbox.path), { recursive: true });
  if (sandbox.strategy === 'git_worktree') await restoreWorktree(context, sandbox, entry);
  else {
    await moveDir(path.join(entry.trashPath, 'meta'), metaDir(sandbox.path));
    await moveDir(path.join(entry.trashPath, 'files'), sandbox.path);
  }
  const restored: SandboxRecord = { ...sandbox, status: 'ready', error: null, updatedAt: context.now() };
  saveSandbox(context.db, restored);
  markTrashRestored(context.db, id, context.now());
  await fs.rm(entry.trashPath, { recursive: true, force: true });
  logEvent(context, 'trash.restored', sandbox.planId, sandbox.id, `Restored the sandbox of ${sandbox.resourceName} from the trash (${id}).`);
  context.emit({ type: 'status', planId: sandbox.planId, sandboxId: sandbox.id, status: 'ready' });
  return restored;
}

/** Deletes expired entries (every entry with `all`); returns what was purged. */
export async function purgeTrash(context: EngineContext, options: { all?: boolean }): Promise<TrashEntry[]> {
  const now = context.now();
  const purged: TrashEntry[] = [];
  for (const entry of listTrash(context.db)) {
    if (!options.all && entry.expiresAt > now) continue;
    if (!isStrictlyInside(context.layout.trashDir, entry.trashPath)) {
      throw new UnsafePathError(`Trash entry ${entry.id} points outside ${context.layout.trashDir} (${entry.trashPath}); it was left alone.`);
    }
    await makeFoldersWritable(entry.trashPath);
    await fs.rm(entry.trashPath, { recursive: true, force: true });
    markTrashPurged(context.db, entry.id, now);
    purged.push(entry);
  }
  if (purged.length > 0) logEvent(context, 'trash.purged', null, null, `Purged ${purged.length} trash entr${purged.length === 1 ? 'y' : 'ies'}.`);
  return purged;
}

/** Makes the worktree again at its base commit, then lays the saved changes over it. */
async function restoreWorktree(context: EngineContext, sandbox: SandboxRecord, entry: TrashEntry): Promise<void> {
  const repo = sandbox.originalPath;
  const base = sandbox.baseCommit as string;
  const exists = await git('cat-file -e', ['cat-file', '-e', `${base}^{commit}`], { cwd: repo, okCodes: [0, 1, 128] });
  if (exists.code !== 0) {
    throw new ConflictError(
      `The base commit ${base.slice(0, 12)} of this sandbox is gone from ${repo} (garbage-collected?), so the worktree cannot be rebuilt. The changed files are at ${path.join(entry.trashPath, 'files')}.`,
    );
  }
  await fs.mkdir(metaDir(sandbox.path), { recursive: true });
  writeMarker(sandbox);
  try {
    if (sandbox.baseRef) await git('update-ref', ['update-ref', sandbox.baseRef, base], { cwd: repo });
    await git('worktree add', ['worktree', 'add', '--detach', '--lock', '--reason', `Bindery sandbox of plan ${sandbox.planId}`, sandbox.path, base], { cwd: repo });
    const saved = JSON.parse(await fs.readFile(path.join(entry.trashPath, 'entry.json'), 'utf8')) as { changes: FileChange[] | null };
    for (const change of saved.changes ?? []) {
      if (change.oldPath) await fs.rm(inRoot(sandbox.path, change.oldPath), { force: true });
      if (change.newType === null) await fs.rm(inRoot(sandbox.path, change.path), { force: true });
      else await copyEntry(inRoot(path.join(entry.trashPath, 'files'), change.path), inRoot(sandbox.path, change.path));
    }
    if (sandbox.access === 'read_only') await makeReadOnly(sandbox.path);
  } catch (error) {
    await removeWorktreeSandbox(repo, sandbox.path, sandbox.baseRef);
    throw error;
  }
}
