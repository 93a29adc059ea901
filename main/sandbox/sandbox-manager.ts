/**
 * SandboxManager: provisions one sandbox per (plan, resource), idempotently (two slots of a plan
 * on one resource share it, with the wider access), and is the entry point for changes, diffs,
 * commits, undo, discard, trash, recovery and live watching of sandboxes.
 */
import type { Database } from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { ulid } from 'ulid';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import type { AccessMode, SandboxStrategy } from '../../shared/model.ts';
import { commitFlushingLater } from '../registry/database.ts';
import { findResource } from '../registry/resources.ts';
import { committedStates } from '../registry/sandbox-commits.ts';
import { deleteSandbox, findSandbox, getSandbox, planSandboxes, saveSandbox } from '../registry/sandboxes.ts';
import { makeWritable, restoreModes, widestAccess } from './provision/access.ts';
import { ChangeCache } from './changes/cache.ts';
import { detectChanges } from './changes/detect.ts';
import { commitAll, commitSandbox, undoLastCommit, type CommitOptions, type CommitOutcome } from './commit/commit.ts';
import type { ProvisionProgress } from './provision/copy-tree.ts';
import { fileDiff } from './changes/diff.ts';
import { discardSandbox, type DiscardOptions, type DiscardOutcome } from './discard/discard.ts';
import { logEvent, type CommitJournal, type EngineContext, type SandboxEvent } from './engine-context.ts';
import { isStrictlyInside, layoutFor, metaDir, sandboxPathFor, writeMarker } from './provision/layout.ts';
import { manifestFile, readManifest, writeBaseline } from './changes/manifest.ts';
import type { FileDiff, HandlerSandbox as Sandbox, SandboxChangeList as SandboxChanges, SandboxInfo as SandboxRecord, TrashItem as TrashEntry } from '../../shared/dto.ts';
import { provision, removeSandboxFiles } from './provision/provision.ts';
import { recoverSandboxes, type RecoveryReport } from './recovery/recovery.ts';
import type { RecoveredTransaction } from './commit/journal/index.ts';
import { assertUndoable, listTrashEntries, purgeTrash, restoreTrash } from './discard/trash.ts';
import { watchSandbox } from './changes/watch.ts';

export type { ProvisionProgress, SandboxEvent, CommitJournal };

/** What a handler asks for; the reference's `get_or_create_sandbox` arguments plus Bindery's extras. */
export interface SandboxRequest {
  planId: string;
  resourceId: string;
  originalPath: string;
  sandboxStrategy: SandboxStrategy;
  /** Defaults to read_write (the normal case). */
  access?: AccessMode;
  slotName?: string;
  resourceName?: string;
  handler?: string | null;
  handlerFailure?: string | null;
  signal?: AbortSignal;
  onProgress?: (progress: ProvisionProgress) => void;
}

/** How the manager is built. */
export interface SandboxManagerOptions {
  db: Database;
  dataDir: string;
  journal: CommitJournal;
  sandboxesRoot?: string;
  now?: () => Date;
  /** How long discarded sandboxes stay recoverable (default 7). */
  trashDays?: number;
}

/** The sandbox engine over one data directory. */
export class SandboxManager {
  private readonly context: EngineContext;
  private readonly listeners = new Set<(event: SandboxEvent) => void>();
  private readonly inflight = new Map<string, Promise<Sandbox | undefined>>();
  /** Per sandbox, what its last change lists found (see change-cache.ts). */
  private readonly changeCaches = new Map<string, ChangeCache>();

  constructor(options: SandboxManagerOptions) {
    const now = options.now ?? (() => new Date());
    this.context = {
      db: options.db,
      layout: layoutFor(options.dataDir, options.sandboxesRoot),
      journal: options.journal,
      trashDays: options.trashDays ?? 7,
      now: () => now().toISOString(),
      emit: (event) => this.listeners.forEach((listener) => listener(event)),
    };
  }

  /** The folders this manager works in. */
  get layout(): EngineContext['layout'] {
    return this.context.layout;
  }

  /** Subscribes to progress, status and change events; returns the unsubscribe function. */
  onEvent(listener: (event: SandboxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The sandbox of `resourceId` in `planId`, provisioned on first call. Later calls return the
   * same sandbox, widened to the union of the accesses asked for and with the slot added.
   */
  async getOrCreateSandbox(request: SandboxRequest): Promise<Sandbox> {
    // Calls for one (plan, resource) run one after another, so the second sees the first's sandbox.
    const key = `${request.planId}\0${request.resourceId}`;
    const previous = this.inflight.get(key) ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => this.getOrCreateInOrder(request));
    this.inflight.set(key, next);
    const clear = (): void => {
      if (this.inflight.get(key) === next) this.inflight.delete(key);
    };
    next.then(clear, clear);
    return next;
  }

  private async getOrCreateInOrder(request: SandboxRequest): Promise<Sandbox> {
    const existing = findSandbox(this.context.db, request.planId, request.resourceId);
    if (existing && existing.status !== 'failed' && existing.status !== 'discarded') return this.share(existing, request);
    return this.create(request, existing);
  }

  /** One sandbox by id. */
  sandbox(id: string): Sandbox {
    const record = getSandbox(this.context.db, id);
    if (!record) throw new NotFoundError(`There is no sandbox "${id}".`, { sandboxId: id });
    return withContext(record);
  }

  /** A plan's sandboxes. */
  planSandboxes(planId: string): Sandbox[] {
    return planSandboxes(this.context.db, planId).map(withContext);
  }

  /** Changes of a sandbox against its base, each classified against the original's current state. */
  async changes(sandboxId: string): Promise<SandboxChanges> {
    const sandbox = this.sandbox(sandboxId);
    let cache = this.changeCaches.get(sandboxId);
    if (!cache) this.changeCaches.set(sandboxId, (cache = ChangeCache.forSandbox(sandbox, this.context.layout.tempDir)));
    return detectChanges(sandbox, this.context.layout.tempDir, cache, committedStates(this.context.db, sandboxId));
  }

  /** The unified diff of one changed path. */
  async diff(sandboxId: string, relPath: string): Promise<FileDiff> {
    return fileDiff(this.sandbox(sandboxId), relPath, this.context.layout.tempDir);
  }

  /** Commits a sandbox's changes (all or selected paths) into its original. */
  async commit(sandboxId: string, options: CommitOptions = {}): Promise<CommitOutcome> {
    return commitSandbox(this.context, this.sandbox(sandboxId), options);
  }

  /** Commits every sandbox of a plan; checks them all first and writes nothing if any has a conflict. */
  async commitAll(planId: string, options: Omit<CommitOptions, 'paths'> = {}): Promise<CommitOutcome[]> {
    return commitAll(this.context, this.planSandboxes(planId), options);
  }

  /** Undoes the last commit of a sandbox from its backups. */
  async undo(sandboxId: string): Promise<{ restored: string[]; gitCommit: string | null }> {
    const sandbox = this.sandbox(sandboxId);
    assertUndoable(this.context, sandbox);
    return undoLastCommit(this.context, sandbox);
  }

  /** Discards a sandbox: its changes go to the trash, its folder is removed. */
  async rollback(sandboxId: string, options: DiscardOptions = {}): Promise<DiscardOutcome> {
    const outcome = await discardSandbox(this.context, this.sandbox(sandboxId), options);
    this.changeCaches.delete(sandboxId);
    return outcome;
  }

  /** Discards every live sandbox of a plan; all are checked (counts, unknowns) before any is removed. */
  async rollbackAll(planId: string, options: DiscardOptions = {}): Promise<DiscardOutcome[]> {
    const live = this.planSandboxes(planId).filter((s) => s.status !== 'discarded');
    const checked = await Promise.all(live.map((s) => discardSandbox(this.context, s, { ...options, dryRun: true })));
    const blocked = checked.filter((outcome) => outcome.kind !== 'ready');
    if (blocked.length > 0) return checked;
    const done: DiscardOutcome[] = [];
    for (const sandbox of live) {
      done.push(await discardSandbox(this.context, sandbox, options));
      this.changeCaches.delete(sandbox.id);
    }
    return done;
  }

  /** Trash entries still recoverable. */
  listTrash(): TrashEntry[] {
    return listTrashEntries(this.context);
  }

  /** Puts a discarded sandbox back. */
  async restoreTrash(id: string): Promise<Sandbox> {
    return withContext(await restoreTrash(this.context, id));
  }

  /** Deletes expired trash entries (all with `all`). */
  async purgeTrash(options: { all?: boolean } = {}): Promise<TrashEntry[]> {
    return purgeTrash(this.context, options);
  }

  /** Reconciles registry and disk at start and finishes or undoes interrupted commits. */
  async recover(): Promise<RecoveryReport> {
    return recoverSandboxes(this.context);
  }

  /** Gives up an interrupted commit that waits for a folder that will not come back as it was (see abandonTransaction). */
  async abandon(transactionId: string): Promise<RecoveredTransaction> {
    const done = await this.context.journal.abandonTransaction(this.context.layout.journalDir, transactionId);
    logEvent(this.context, 'commit.abandoned', done.labels?.planId ?? null, done.labels?.sandboxId ?? null, `The interrupted commit or undo ${transactionId} was abandoned while its folder was away; its backups stay in the journal folder.`);
    return done;
  }

  /** Watches a sandbox and reports its change list as it changes; returns the stop function. */
  watch(sandboxId: string, onChanges: (changes: SandboxChanges) => void): () => Promise<void> {
    const sandbox = this.sandbox(sandboxId);
    return watchSandbox(sandbox, () => this.changes(sandboxId), (changes) => {
      onChanges(changes);
      this.context.emit({ type: 'changes', planId: sandbox.planId, sandboxId, changes });
    });
  }

  private async share(existing: SandboxRecord, request: SandboxRequest): Promise<Sandbox> {
    const access = widestAccess(existing.access, request.access ?? 'read_write');
    const slotNames = request.slotName && !existing.slotNames.includes(request.slotName) ? [...existing.slotNames, request.slotName] : existing.slotNames;
    if (access === existing.access && slotNames === existing.slotNames) return withContext(existing);
    if (access !== existing.access && existing.strategy !== 'none') {
      if (existing.access === 'write_only') {
        throw new ConflictError(
          `The sandbox of ${existing.resourceName} in plan ${existing.planId} was made write_only (empty) and cannot be widened to ${access}. Bind the slots with matching access, or discard it and provision again.`,
        );
      }
      if (existing.access === 'read_only') await widenReadOnly(existing);
    }
    const next: SandboxRecord = { ...existing, access, slotNames, updatedAt: this.context.now() };
    saveSandbox(this.context.db, next);
    return withContext(next);
  }

  private async create(request: SandboxRequest, previous: SandboxRecord | undefined): Promise<Sandbox> {
    const { db } = this.context;
    const originalPath = await checkOriginal(request.originalPath);
    if (request.sandboxStrategy !== 'none') refuseNesting(originalPath, this.context.layout.root);
    const resourceName = request.resourceName ?? findResource(db, request.resourceId)?.name ?? request.resourceId;
    const access = request.access ?? 'read_write';
    const id = previous?.id ?? ulid();
    const sandboxPath = request.sandboxStrategy === 'none' ? originalPath : sandboxPathFor(this.context.layout.root, request.planId, resourceName, request.resourceId);
    const stamp = this.context.now();
    const record: SandboxRecord = {
      id,
      planId: request.planId,
      resourceId: request.resourceId,
      resourceName,
      slotNames: request.slotName ? [request.slotName] : [],
      originalPath,
      requestedStrategy: request.sandboxStrategy,
      strategy: request.sandboxStrategy,
      copyMethod: null,
      fallbackReason: null,
      handler: request.handler ?? null,
      handlerFailure: request.handlerFailure ?? null,
      access,
      path: sandboxPath,
      baseRef: null,
      baseCommit: null,
      ignoredFiles: [],
      ignoredCount: 0,
      status: 'provisioning',
      error: null,
      createdAt: previous?.createdAt ?? stamp,
      updatedAt: stamp,
    };
    if (request.sandboxStrategy !== 'none') await this.claimFolder(record);
    // The row of a copy is flushed beside the copy rather than before it: what it records stays in
    // the kernel's writeback for seconds, far longer than its flush, and lies in the sandboxes folder
    // alone. A worktree's is on disk before git writes into the user's repository (the worktree entry
    // and the private ref), which recovery removes only through this row.
    if (request.sandboxStrategy === 'git_worktree') saveSandbox(db, record);
    else commitFlushingLater(db, () => saveSandbox(db, record));
    const emitProgress = (progress: ProvisionProgress): void => {
      request.onProgress?.(progress);
      this.context.emit({ type: 'progress', planId: record.planId, resourceId: record.resourceId, sandboxId: id, ...progress });
    };
    try {
      const outcome = await provision({
        sandboxId: id,
        planId: request.planId,
        originalPath,
        sandboxPath,
        strategy: request.sandboxStrategy,
        access,
        tempDir: this.context.layout.tempDir,
        signal: request.signal,
        onProgress: emitProgress,
      });
      const ready: SandboxRecord = { ...record, ...outcome, status: 'ready', updatedAt: this.context.now() };
      const how = ready.fallbackReason ? `${ready.strategy} (${ready.fallbackReason})` : ready.strategy;
      // One transaction: the row and its activity line land together, flushed beside what follows
      // (the files it records are not on disk yet either).
      commitFlushingLater(db, () => {
        saveSandbox(db, ready);
        logEvent(this.context, 'sandbox.created', ready.planId, id, `Sandbox of ${resourceName} provisioned with ${how} at ${sandboxPath}.`);
      });
      this.context.emit({ type: 'status', planId: ready.planId, sandboxId: id, status: 'ready' });
      return withContext(ready);
    } catch (error) {
      if (request.sandboxStrategy !== 'none') await removeSandboxFiles(sandboxPath);
      // A discarded sandbox stays discarded (as it was recorded), so its trash entries can still be restored.
      if (previous?.status === 'discarded') saveSandbox(db, { ...previous, error: (error as Error).message, updatedAt: this.context.now() });
      else if (previous) saveSandbox(db, { ...record, status: 'failed', error: (error as Error).message, updatedAt: this.context.now() });
      else deleteSandbox(db, id);
      throw error;
    }
  }

  /**
   * Creates the metadata folder with its marker; refuses a folder that is already there. Local
   * metadata calls are synchronous: microseconds each, where a thread-pool round trip costs more.
   */
  private async claimFolder(record: SandboxRecord): Promise<void> {
    if (fs.lstatSync(record.path, { throwIfNoEntry: false })) {
      throw new ConflictError(
        `The sandbox folder ${record.path} already exists but is not a live sandbox of this plan. Inspect it (it is listed as an orphan) and remove it, then try again.`,
        { path: record.path },
      );
    }
    fs.mkdirSync(path.dirname(record.path), { recursive: true });
    fs.rmSync(metaDir(record.path), { recursive: true, force: true });
    fs.mkdirSync(metaDir(record.path));
    writeMarker(record);
  }
}

/** Makes a read_only sandbox writable again: a copy gets its original modes back (so no mode change shows), a worktree gets write bits. */
async function widenReadOnly(record: SandboxRecord): Promise<void> {
  if (record.strategy !== 'copy_on_write') return makeWritable(record.path);
  const manifest = readManifest(manifestFile(metaDir(record.path)));
  const modes = new Map<string, number>();
  for (const [rel, entry] of manifest) if (entry.type === 'file') modes.set(rel, entry.mode);
  await restoreModes(record.path, modes);
  // Bindery's own chmods are not changes: move the ctime baseline past them.
  writeBaseline(metaDir(record.path));
}

function withContext(record: SandboxRecord): Sandbox {
  return { ...record, context: { sandboxPath: record.path } };
}

async function checkOriginal(location: string): Promise<string> {
  const absolute = path.resolve(location);
  const real = realpathOrNull(absolute);
  const stat = real ? fs.statSync(real, { throwIfNoEntry: false }) : undefined;
  if (!real || !stat?.isDirectory()) {
    throw new ValidationError(`The resource folder ${absolute} does not exist or is not a directory: fix the resource's location (bindery resources update).`, {
      location: absolute,
    });
  }
  return real;
}

/** Refuses an original that holds the sandboxes folder: its sandbox would hold a copy of itself. */
function refuseNesting(originalPath: string, sandboxesRoot: string): void {
  const root = realLocation(sandboxesRoot);
  if (root !== originalPath && !isStrictlyInside(originalPath, root)) return;
  throw new ValidationError(
    `The resource folder ${originalPath} contains Bindery's sandboxes folder ${root}, so its sandbox would contain itself. ` +
      'Use the strategy "none" for it, bind a narrower folder, or move Bindery\'s data directory out of it (--data-dir or BINDERY_HOME).',
    { location: originalPath, sandboxesRoot: root },
  );
}

/** The real path of a location that may not exist yet: its nearest existing ancestor resolved, the rest kept. */
function realLocation(location: string): string {
  const real = realpathOrNull(location);
  if (real !== null) return real;
  const parent = path.dirname(location);
  return parent === location ? location : path.join(realLocation(parent), path.basename(location));
}

function realpathOrNull(location: string): string | null {
  try {
    return fs.realpathSync.native(location);
  } catch {
    return null;
  }
}
