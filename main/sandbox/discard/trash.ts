/**
 * The trash of discarded sandboxes: list, restore (the sandbox comes back as it was, registered
 * and reviewable again) and purge (entries past their date, or all). Only folders under the
 * trash folder are ever deleted. A restore killed mid-way can simply be run again.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConflictError, NotFoundError, UnsafePathError } from '../../../shared/errors.ts';
import { makeFoldersWritable, makeReadOnly } from '../provision/index.ts';
import { logEvent, type EngineContext } from '../context.ts';
import { copyIgnored } from './ignored.ts';
import { unpackSnapshot, withObjectsLock } from './git-objects.ts';
import { inRoot } from '../fs/index.ts';
import { purgeTransactionsById } from '../commit/index.ts';
import { locksDirOf, withLocks } from '../commit/index.ts';
import { git } from '../../git/index.ts';
import { assertDeletable, isStrictlyInside, metaDir, writeMarker } from '../provision/index.ts';
import type { ChangedFile, SandboxInfo, TrashItem } from '../../../shared/dto.ts';
import { removeWorktreeSandbox } from '../provision/index.ts';
import { restoreCheckpoints } from './trash-checkpoints.ts';
import { copyEntry, copyInto, exists, heldByLiveProcess, moveDir, readTrashRecord, RESTORING_FLAG, setFlag, SNAPSHOT_PACK, type TrashRecord } from './trash-files.ts';

/** Entries still recoverable, newest first. */
export function listTrashEntries(context: EngineContext): TrashItem[] {
  return context.store.listTrash();
}

/**
 * Restores a trash entry into its sandbox folder, rebuilt from the record saved with the entry
 * (a later provision of the same sandbox may have had another base), and marks it ready again.
 */
export async function restoreTrash(context: EngineContext, id: string): Promise<SandboxInfo> {
  const found = context.store.getTrash(id);
  if (!found) throw new NotFoundError(`There is no trash entry "${id}": see the list of the trash.`, { id, hints: [{ action: 'list-trash' }] });
  // Held across processes for the whole restore: a purge elsewhere waits, then sees the entry restored.
  return withEntryLock(context, found, `restoring trash entry ${id}`, () => restoreLocked(context, id));
}

async function restoreLocked(context: EngineContext, id: string): Promise<SandboxInfo> {
  const entry = context.store.getTrash(id);
  if (!entry) throw new NotFoundError(`There is no trash entry "${id}" any more (restored or purged meanwhile): see the list of the trash.`, { id, hints: [{ action: 'list-trash' }] });
  const current = context.store.getSandbox(entry.sandboxId);
  if (!current || (current.status !== 'discarded' && current.status !== 'failed')) {
    throw new ConflictError(
      `The sandbox of ${entry.resourceName} in plan ${entry.planId} is live again (provisioned anew), so the trash entry cannot go back in its place. Its files are at ${path.join(entry.trashPath, 'files')}.`,
    );
  }
  if (await heldByLiveProcess(entry.trashPath)) {
    throw new ConflictError(`Another Bindery process is discarding or restoring trash entry ${id} right now; try again once it is done.`, { id });
  }
  const record = await readTrashRecord(entry.trashPath);
  const sandbox = record.sandbox;
  await fs.mkdir(path.dirname(sandbox.path), { recursive: true });
  if (sandbox.strategy === 'git_worktree') await restoreWorktree(context, sandbox, entry, record);
  else await restoreCopy(sandbox, entry, record);
  const checkpoints = await restoreCheckpoints(context, sandbox, entry.trashPath);
  const restored: SandboxInfo = { ...sandbox, status: 'ready', error: null, updatedAt: context.now() };
  context.store.transaction(() => {
    context.store.saveSandbox(restored);
    context.store.rememberCommittedStates(sandbox.id, entry.createdAt);
    context.store.restoreCheckpoints(checkpoints);
    context.store.markTrashRestored(id, context.now());
    // In the same transaction, so a crash cannot keep the restore without its activity line.
    logEvent(context, 'trash.restored', sandbox.planId, sandbox.id, `Restored the sandbox of ${sandbox.resourceName} from the trash (${id}).`);
  });
  await removeFlagLast(entry.trashPath, RESTORING_FLAG);
  context.emit({ type: 'status', planId: sandbox.planId, sandboxId: sandbox.id, status: 'ready' });
  return restored;
}

/** The entry's record (see writeTrashRecord): what tells recovery which entry a folder is. */
const ENTRY_FILE = 'entry.json';

/**
 * Removes an entry's folder with entry.json and then its flag last, so a crash part way leaves the
 * flag with entry.json (recovery sees the entry restored and removes the rest), the flag alone, or
 * an empty folder (which recovery removes too). Without entry.json recovery cannot tell whose
 * files are left, so it goes only once they are gone.
 */
async function removeFlagLast(trashPath: string, flag: string): Promise<void> {
  await makeFoldersWritable(trashPath);
  await setFlag(trashPath, flag).catch(() => undefined);
  for (const name of await fs.readdir(trashPath).catch(() => [] as string[])) {
    if (name !== flag && name !== ENTRY_FILE) await fs.rm(path.join(trashPath, name), { recursive: true, force: true });
  }
  await fs.rm(path.join(trashPath, ENTRY_FILE), { force: true });
  await fs.rm(path.join(trashPath, flag), { force: true });
  await fs.rmdir(trashPath).catch(() => undefined);
}

/** Deletes expired entries (every entry with `all`); returns what was purged. */
export async function purgeTrash(context: EngineContext, options: { all?: boolean }): Promise<TrashItem[]> {
  const now = context.now();
  const purged: TrashItem[] = [];
  for (const listed of context.store.listTrash()) {
    if (!options.all && listed.expiresAt > now) continue;
    if (!isStrictlyInside(context.layout.trashDir, listed.trashPath)) {
      throw new UnsafePathError(`Trash entry ${listed.id} points outside ${context.layout.trashDir} (${listed.trashPath}); it was left alone.`);
    }
    // Under the entry's lock, and only if it is still in the trash: another process may be restoring it.
    const entry = await withEntryLock(context, listed, `purging trash entry ${listed.id}`, async () => {
      const still = context.store.getTrash(listed.id);
      if (!still || still.trashPath !== listed.trashPath) return null;
      await makeFoldersWritable(still.trashPath);
      await fs.rm(still.trashPath, { recursive: true, force: true });
      context.store.markTrashPurged(still.id, now);
      return still;
    });
    if (entry) purged.push(entry);
  }
  if (purged.length > 0) logEvent(context, 'trash.purged', null, null, `Purged ${purged.length} trash entr${purged.length === 1 ? 'y' : 'ies'}.`);
  await dropUnservedBackups(context);
  return purged;
}

/** Runs `work` holding the lock of a trash entry, across every process sharing the data directory. */
function withEntryLock<T>(context: EngineContext, entry: TrashItem, label: string, work: () => Promise<T>): Promise<T> {
  return withLocks(locksDirOf(context.layout.journalDir), [{ key: path.resolve(entry.trashPath), label }], work);
}

/**
 * Deletes the commit backups no undo can use any more. A commit is undone by the sandbox that made
 * it while the commit counts as that sandbox's own: a discard forgets its commits and its trash
 * entry can bring them back (a restored sandbox undoes again), so their backups live exactly as
 * long as that entry; a discard without an entry, or the entry's purge, ends them.
 */
export async function dropUnservedBackups(context: EngineContext): Promise<string[]> {
  const ids = context.store.unservedCommitTransactions();
  return ids.length > 0 ? purgeTransactionsById(context.layout.journalDir, ids) : [];
}

/** Refuses an undo of a commit made before its sandbox was discarded: restoring the trash entry brings that undo back. */
export function assertUndoable(context: EngineContext, sandbox: SandboxInfo): void {
  if (sandbox.status === 'discarded') {
    throw new ConflictError(`The sandbox of ${sandbox.resourceName} was discarded, so its commits cannot be undone; restore it from the trash first.`, {
      sandboxId: sandbox.id,
      hints: [{ action: 'list-trash' }],
    });
  }
  if (context.store.lastCommitForgotten(sandbox.id)) {
    throw new ConflictError(
      `The last commit of ${sandbox.resourceName} was made by an earlier sandbox that was discarded since, so it cannot be undone from this one; restore that sandbox from the trash to undo it.`,
      { sandboxId: sandbox.id, hints: [{ action: 'list-trash' }] },
    );
  }
}

/**
 * Moves a copied sandbox back: its files, then its metadata. Each step is skipped when an earlier,
 * interrupted restore did it already (the folder in place and gone from the entry).
 */
async function restoreCopy(sandbox: SandboxInfo, entry: TrashItem, record: TrashRecord): Promise<void> {
  const files = path.join(entry.trashPath, 'files');
  const source = await keptFolder(files, sandbox.path, entry.id);
  if (source) {
    const flag = path.join(entry.trashPath, RESTORING_FLAG);
    await setFlag(entry.trashPath, RESTORING_FLAG);
    await moveBack(source, sandbox.path, files).catch(async (error: unknown) => {
      if (await exists(files)) await fs.rm(flag, { force: true });
      throw error;
    });
  } else if (!(await exists(sandbox.path))) throw new ConflictError(`The files of trash entry ${entry.id} are gone from ${files}, so it cannot be restored; purge it.`);
  const meta = path.join(entry.trashPath, 'meta');
  const metaSource = await keptFolder(meta, metaDir(sandbox.path), entry.id);
  if (metaSource) await moveBack(metaSource, metaDir(sandbox.path), meta);
  if (record.rootMode != null) await fs.chmod(sandbox.path, record.rootMode);
}

/** Where a move across filesystems put its complete copy (and that copy's identity, which a rename keeps). */
interface CopyNote {
  copy: string;
  dev: number;
  ino: number;
}

/**
 * Moves a folder kept in the entry back to `target`. Across filesystems, its complete copy is noted
 * in `<kept>.copy` before the folder is set aside as `<kept>.moved`, so a rerun can tell that copy
 * from a folder someone else put at `target`.
 */
async function moveBack(source: string, target: string, kept: string): Promise<void> {
  const copied = async (copy: string): Promise<void> => {
    const { dev, ino } = await fs.stat(copy);
    await fs.writeFile(`${kept}.copy`, JSON.stringify({ copy, dev, ino } satisfies CopyNote));
  };
  await moveDir(source, target, { aside: `${kept}.moved`, copied });
}

/**
 * Where a folder kept in the entry moves back from, or null when there is none (back already, or
 * gone). A folder at `target` counts as back only when it is the noted copy, or when the kept
 * folder is gone without being set aside (a plain rename); otherwise it is someone else's and
 * nothing is touched. A noted copy that had not yet taken `target` does so now.
 */
async function keptFolder(kept: string, target: string, id: string): Promise<string | null> {
  const note = await fs.readFile(`${kept}.copy`, 'utf8').then((text) => JSON.parse(text) as CopyNote, () => null);
  if (await exists(target)) {
    if (await exists(kept)) throw new ConflictError(`${target} exists already; move it away to restore ${id} there.`);
    const found = await fs.lstat(target);
    const ours = note ? found.dev === note.dev && found.ino === note.ino : !(await exists(`${kept}.moved`));
    if (!ours) throw new ConflictError(`${target} exists but is not what restoring ${id} put there; move it away to restore ${id} there. Nothing was deleted.`);
    return null;
  }
  if (note && (await exists(note.copy))) {
    await fs.rename(note.copy, target);
    await fs.rmdir(path.dirname(note.copy));
    return null;
  }
  for (const source of [kept, `${kept}.moved`]) if (await exists(source)) return source;
  return null;
}

/**
 * Makes the worktree again at the entry's base commit, then lays the saved files over it. The
 * trash keeps its copies until the end, so a worktree left by an interrupted restore of this
 * entry (the flag says so) is removed and made again.
 */
async function restoreWorktree(context: EngineContext, sandbox: SandboxInfo, entry: TrashItem, record: TrashRecord): Promise<void> {
  // The snapshot's objects are back before its ref and worktree hold them: a prune elsewhere waits till then.
  await withObjectsLock(sandbox.originalPath, context.layout.tempDir, () => restoreWorktreeLocked(context, sandbox, entry, record));
}

async function restoreWorktreeLocked(context: EngineContext, sandbox: SandboxInfo, entry: TrashItem, record: TrashRecord): Promise<void> {
  const repo = sandbox.originalPath;
  const base = sandbox.baseCommit as string;
  const flag = path.join(entry.trashPath, RESTORING_FLAG);
  if (await exists(sandbox.path)) {
    if (!(await exists(flag))) throw new ConflictError(`${sandbox.path} exists already; move it away to restore ${entry.id} there.`);
    await assertDeletable(context.layout.root, sandbox);
    await removeWorktreeSandbox(repo, sandbox.path, sandbox.baseRef);
  }
  const pack = await fs.readFile(path.join(entry.trashPath, SNAPSHOT_PACK)).catch(() => null);
  if (pack) await unpackSnapshot(repo, pack, base, context.layout.tempDir);
  const found = await git('cat-file -e', ['cat-file', '-e', `${base}^{commit}`], { cwd: repo, okCodes: [0, 1, 128] });
  if (found.code !== 0) {
    throw new ConflictError(
      `The base commit ${base.slice(0, 12)} of this sandbox is gone from ${repo} (garbage-collected?), so the worktree cannot be rebuilt. The changed files are at ${path.join(entry.trashPath, 'files')}.`,
    );
  }
  await setFlag(entry.trashPath, RESTORING_FLAG);
  await fs.mkdir(metaDir(sandbox.path), { recursive: true });
  writeMarker(sandbox);
  let made = false;
  try {
    if (sandbox.baseRef) await git('update-ref', ['update-ref', sandbox.baseRef, base], { cwd: repo });
    await git('worktree add', ['worktree', 'add', '--detach', '--lock', '--reason', `Bindery sandbox of plan ${sandbox.planId}`, sandbox.path, base], { cwd: repo });
    made = true;
    const files = path.join(entry.trashPath, 'files');
    const emptyDirs = async () => {
      for (const dir of record.emptyDirs ?? []) await fs.mkdir(inRoot(sandbox.path, dir), { recursive: true });
    };
    if (record.whole) {
      await replaceTree(sandbox.path, files);
      await emptyDirs();
    } else {
      await applyChanges(sandbox.path, files, record.changes ?? []);
      // Before the ignored files, whose folders get their modes last (an empty folder may be in one without a write bit).
      await emptyDirs();
      await copyIgnored(files, sandbox.path, record.ignored ?? []);
    }
    if (sandbox.access === 'read_only') await makeReadOnly(sandbox.path);
  } catch (error) {
    // Only a worktree this call made goes: a folder that took its place meanwhile is someone else's.
    if (made) await removeWorktreeSandbox(repo, sandbox.path, sandbox.baseRef);
    await fs.rm(flag, { force: true });
    throw error;
  }
}

/** Puts the saved working tree in place of the fresh checkout (all but `.git`, which links the worktree). */
async function replaceTree(sandboxPath: string, files: string): Promise<void> {
  for (const name of await fs.readdir(sandboxPath)) {
    if (name !== '.git') await fs.rm(path.join(sandboxPath, name), { recursive: true, force: true });
  }
  await copyInto(files, sandboxPath);
}

/**
 * Lays saved changes over the base: deletions first, deepest first (a folder that became a file
 * is emptied before the file arrives), folders they leave empty going too as git would, then
 * the saved files. What is still in the way of a file is base content, so it goes.
 */
async function applyChanges(sandboxPath: string, files: string, changes: ChangedFile[]): Promise<void> {
  // A special file (a FIFO) was not kept: the base stays at its path, which must not read as a deletion.
  const gone = changes.flatMap((change) => [...(change.oldPath ? [change.oldPath] : []), ...(change.newType === null && !change.special ? [change.path] : [])]);
  for (const rel of gone.sort((a, b) => b.split('/').length - a.split('/').length)) {
    await fs.rm(inRoot(sandboxPath, rel), { force: true });
    for (let dir = path.posix.dirname(rel); dir !== '.'; dir = path.posix.dirname(dir)) {
      if (!(await fs.rmdir(inRoot(sandboxPath, dir)).then(() => true, () => false))) break;
    }
  }
  for (const change of changes) {
    if (change.newType === null) continue;
    const to = inRoot(sandboxPath, change.path);
    if ((await fs.lstat(to).catch(() => null))?.isDirectory()) await fs.rm(to, { recursive: true });
    await copyEntry(files, sandboxPath, change.path);
  }
}
