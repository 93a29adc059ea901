/**
 * SandboxManager: the sandbox engine's facade. One sandbox per (plan, resource), provisioned
 * idempotently (provision/provision-sandbox.ts); changes, diffs, commits, undo, discard, trash,
 * recovery and live watching, each delegated to its room.
 */
import { NotFoundError } from '../../shared/errors.ts';
import type { CommittedState, FileDiff, HandlerSandbox as Sandbox, SandboxChangeList as SandboxChanges, SandboxInfo, TrashItem } from '../../shared/dto.ts';
import { ChangeCache } from './changes/index.ts';
import { detectChanges } from './changes/index.ts';
import { fileDiff, sandboxDiffs } from './changes/index.ts';
import { watchSandbox } from './changes/index.ts';
import { commitAll, commitSandbox, undoLastCommit, type CommitOptions, type CommitOutcome } from './commit/index.ts';
import type { RecoveredTransaction } from './commit/index.ts';
import { discardSandbox, type DiscardOptions, type DiscardOutcome } from './discard/index.ts';
import { assertUndoable, listTrashEntries, purgeTrash, restoreTrash } from './discard/index.ts';
import { logEvent, type CommitJournal, type EngineContext, type SandboxEvent, type SandboxStore } from './context.ts';
import type { ProvisionProgress } from './provision/index.ts';
import { layoutFor } from './provision/index.ts';
import { createSandbox, shareSandbox, type SandboxRequest } from './provision/index.ts';
import { recoverSandboxes, type RecoveryReport } from './recovery/index.ts';

export type { ProvisionProgress, SandboxEvent, CommitJournal, SandboxRequest, SandboxStore };

/** How the manager is built. */
export interface SandboxManagerOptions {
  /** Where the engine keeps its records (main/registry's SqliteSandboxStore in the app). */
  store: SandboxStore;
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
  /** Per sandbox, what its last change lists found (see changes/cache.ts). */
  private readonly changeCaches = new Map<string, ChangeCache>();

  constructor(options: SandboxManagerOptions) {
    const now = options.now ?? (() => new Date());
    this.context = {
      store: options.store,
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
    const existing = this.context.store.findSandbox(request.planId, request.resourceId);
    const live = existing && existing.status !== 'failed' && existing.status !== 'discarded';
    return withContext(live ? await shareSandbox(this.context, existing, request) : await createSandbox(this.context, request, existing));
  }

  /** One sandbox by id. */
  sandbox(id: string): Sandbox {
    const record = this.context.store.getSandbox(id);
    if (!record) throw new NotFoundError(`There is no sandbox "${id}".`, { sandboxId: id });
    return withContext(record);
  }

  /** A plan's sandboxes. */
  planSandboxes(planId: string): Sandbox[] {
    return this.context.store.planSandboxes(planId).map(withContext);
  }

  /** Changes of a sandbox against its base, each classified against the original's current state. */
  async changes(sandboxId: string): Promise<SandboxChanges> {
    const sandbox = this.sandbox(sandboxId);
    let cache = this.changeCaches.get(sandboxId);
    if (!cache) this.changeCaches.set(sandboxId, (cache = ChangeCache.forSandbox(sandbox, this.context.layout.tempDir)));
    return detectChanges(sandbox, this.context.layout.tempDir, cache, this.context.store.committedStates(sandboxId));
  }

  /** The unified diff of one changed path. */
  async diff(sandboxId: string, relPath: string): Promise<FileDiff> {
    return fileDiff(this.sandbox(sandboxId), relPath, this.context.layout.tempDir, this.ownCommits(sandboxId));
  }

  /** The unified diffs of every change (or of the one at new path `only`), from one look at the sandbox. */
  async diffs(sandboxId: string, only?: string): Promise<FileDiff[]> {
    // Where this process keeps a change cache (a server), listing is cheap and only the one file is read.
    if (only !== undefined && this.changeCaches.has(sandboxId)) {
      const listed = await this.changes(sandboxId);
      return listed.changes.some((change) => change.path === only) ? [await this.diff(sandboxId, only)] : [];
    }
    return sandboxDiffs(this.sandbox(sandboxId), this.context.layout.tempDir, this.ownCommits(sandboxId), only);
  }

  /** What the sandbox's commits (not undone) left in its original, by path: after a partial commit, the old side of what is pending. */
  ownCommits(sandboxId: string): ReadonlyMap<string, CommittedState> {
    return this.context.store.committedStates(sandboxId);
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
  async discard(sandboxId: string, options: DiscardOptions = {}): Promise<DiscardOutcome> {
    const outcome = await discardSandbox(this.context, this.sandbox(sandboxId), options);
    this.changeCaches.delete(sandboxId);
    return outcome;
  }

  /** Discards every live sandbox of a plan; all are checked (counts, unknowns) before any is removed. */
  async discardAll(planId: string, options: DiscardOptions = {}): Promise<DiscardOutcome[]> {
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
  listTrash(): TrashItem[] {
    return listTrashEntries(this.context);
  }

  /** Puts a discarded sandbox back. */
  async restoreTrash(id: string): Promise<Sandbox> {
    return withContext(await restoreTrash(this.context, id));
  }

  /** Deletes expired trash entries (all with `all`). */
  async purgeTrash(options: { all?: boolean } = {}): Promise<TrashItem[]> {
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
}

function withContext(record: SandboxInfo): Sandbox {
  return { ...record, context: { sandboxPath: record.path } };
}
