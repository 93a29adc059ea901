/**
 * Recovery at start (DESIGN 2.5): interrupted commits are finished or undone through the journal;
 * interrupted discards and restores are finished; provisions a crashed process left half-done are
 * removed; sandboxes whose folder vanished are marked missing (and ready again when it is back);
 * folders under the root that the registry does not know are listed as orphans for the user to
 * inspect, and never deleted.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { ConflictError } from '../../../shared/errors.ts';
import { makeFoldersWritable } from '../provision/index.ts';
import { finishDiscard, putBack } from '../discard/index.ts';
import { logEvent, type EngineContext } from '../context.ts';
import type { RecoveredTransaction } from '../commit/index.ts';
import { readSmallEntry, TEXT_LIMIT } from '../changes/index.ts';
import { inRoot } from '../fs/index.ts';
import type { CommitInfo, CommittedState } from '../../../shared/dto.ts';
import { META_SUFFIX, readMarker } from '../provision/index.ts';
import { removeSandboxFiles, removeWorktreeSandbox } from '../provision/index.ts';
import { baseRefFor } from '../provision/index.ts';
import { restoreTrash } from '../discard/index.ts';
import { DISCARDING_FLAG, exists, flagOwner, heldByLiveProcess, isProcessAlive, readTrashRecord, REMOVING_FLAG, RESTORING_FLAG, type TrashRecord } from '../discard/index.ts';

/** What recovery found and did. */
export interface RecoveryReport {
  transactions: RecoveredTransaction[];
  /** Sandboxes whose folder is gone (now status `missing`). */
  missing: Array<{ sandboxId: string; planId: string; path: string }>;
  /** Missing sandboxes whose marked folder is back (ready again). */
  returned: Array<{ sandboxId: string; planId: string; path: string }>;
  /** Half-made sandboxes of a process that died while provisioning (removed). */
  abandoned: Array<{ sandboxId: string; planId: string; path: string }>;
  /** Discards and restores a process died in: finished, undone, or failed (with why; the entry's files stay). */
  trash: Array<{ trashId: string; sandboxId: string | null; outcome: 'discarded' | 'kept' | 'restored' | 'failed'; reason?: string }>;
  /** Folders under the sandboxes root that no sandbox owns (left in place). */
  orphans: string[];
}

/** Reconciles registry and disk. */
export async function recoverSandboxes(context: EngineContext): Promise<RecoveryReport> {
  const { store, layout } = context;
  const report: RecoveryReport = { transactions: [], missing: [], returned: [], abandoned: [], trash: [], orphans: [] };
  if (await exists(layout.journalDir)) {
    report.transactions = await context.journal.recoverTransactions(layout.journalDir, {
      // A commit whose process died after the journal's end but before its record: recorded now, so it can be undone.
      // Likewise an undo whose process died before marking its commit undone.
      unrecorded: (transactionId, labels, state) => {
        const commit = store.commitOfTransaction(transactionId);
        if (state === 'undone') return !!commit && !commit.undoneAt;
        return !commit && ['ready', 'committed'].includes(store.getSandbox(labels.sandboxId ?? '')?.status ?? '');
      },
      onSettled: (done) => noteRecovered(context, done, 'at start'),
    });
  }
  report.trash = await recoverTrash(context);
  for (const sandbox of store.sandboxesWithStatus(['provisioning'])) {
    const marker = await readMarker(sandbox.path);
    if (marker && marker.pid !== process.pid && isProcessAlive(marker.pid)) continue;
    if (sandbox.strategy !== 'none') {
      if (sandbox.requestedStrategy === 'git_worktree') {
        await removeWorktreeSandbox(sandbox.originalPath, sandbox.path, baseRefFor(sandbox.planId, sandbox.id)).catch(() => undefined);
      }
      await removeSandboxFiles(sandbox.path);
    }
    // A discarded sandbox provisioned anew keeps its row (and with it its commits and trash entries).
    if (store.listTrash().some((entry) => entry.sandboxId === sandbox.id) || store.lastCommit(sandbox.id)) {
      store.setStatus(sandbox.id, 'discarded', context.now(), 'Provisioning it again was interrupted; it stays discarded.');
    } else store.deleteSandbox(sandbox.id);
    report.abandoned.push({ sandboxId: sandbox.id, planId: sandbox.planId, path: sandbox.path });
  }
  // Marking one missing would change its row, and a waiting discard finishes only over the row it saw.
  const waiting = await discardsWaiting(layout.trashDir);
  for (const sandbox of store.sandboxesWithStatus(['ready', 'committed'])) {
    if (waiting.has(sandbox.id) || (await exists(sandbox.path))) continue;
    const reason = `Its folder ${sandbox.path} disappeared outside Bindery.`;
    store.setStatus(sandbox.id, 'missing', context.now(), reason);
    logEvent(context, 'sandbox.missing', sandbox.planId, sandbox.id, `The sandbox of ${sandbox.resourceName} is missing. ${reason}`);
    report.missing.push({ sandboxId: sandbox.id, planId: sandbox.planId, path: sandbox.path });
  }
  for (const sandbox of store.sandboxesWithStatus(['missing'])) {
    if ((await readMarker(sandbox.path))?.sandboxId !== sandbox.id || !(await isDirectory(sandbox.path))) continue;
    store.setStatus(sandbox.id, 'ready', context.now());
    logEvent(context, 'sandbox.returned', sandbox.planId, sandbox.id, `The folder ${sandbox.path} of the sandbox of ${sandbox.resourceName} is back; the sandbox is ready again.`);
    report.returned.push({ sandboxId: sandbox.id, planId: sandbox.planId, path: sandbox.path });
  }
  report.orphans = await findOrphans(context);
  return report;
}

/**
 * Records what recovery did with one interrupted commit or undo (`when` it did): an activity line,
 * and for an undo it finished, the commit marked undone, so that undoing the last commit moves on
 * to the one before it.
 */
export function noteRecovered(context: EngineContext, done: RecoveredTransaction, when: string): void {
  // Record, status and log line land together, as a commit's own do (commit.ts).
  context.store.transaction(() => noteRecoveredNow(context, done, when));
}

function noteRecoveredNow(context: EngineContext, done: RecoveredTransaction, when: string): void {
  const commit = context.store.commitOfTransaction(done.transactionId) ?? recordFinishedCommit(context, done);
  if (done.outcome === 'undone' && commit && !commit.undoneAt) {
    context.store.markCommitUndone(commit.id, context.now());
    if (context.store.getSandbox(commit.sandboxId)?.status === 'committed') context.store.setStatus(commit.sandboxId, 'ready', context.now());
    context.emit({ type: 'recovered', planId: commit.planId, sandboxId: commit.sandboxId });
  }
  const what = done.outcome === 'undone' ? 'undo' : 'commit';
  const untouched = done.untouched?.length ? ` ${done.untouched.length} file(s) someone changed meanwhile were left as they are.` : '';
  const message =
    done.outcome === 'waiting'
      ? `An interrupted commit or undo (${done.transactionId}) is waiting: ${done.reason}`
      : `An interrupted ${what} (${done.transactionId}) was ${done.outcome === 'rolled_back' ? 'rolled back' : 'finished'} ${when}.${untouched}`;
  const kind = done.outcome === 'completed' ? 'commit.recovered' : done.outcome === 'undone' ? 'commit.undone' : `commit.${done.outcome}`;
  logEvent(context, kind, commit?.planId ?? null, commit?.sandboxId ?? null, message);
}

/**
 * Records a commit that recovery finished after the process making it died before recording it,
 * so that it can be undone like any other: the sandbox it came from is among the journal's labels.
 */
function recordFinishedCommit(context: EngineContext, done: RecoveredTransaction): CommitInfo | undefined {
  const sandbox = done.outcome === 'completed' && done.labels?.sandboxId ? context.store.getSandbox(done.labels.sandboxId) : undefined;
  if (!sandbox) return undefined;
  const commit: CommitInfo = {
    id: ulid(),
    sandboxId: sandbox.id,
    planId: sandbox.planId,
    transactionId: done.transactionId,
    written: done.written ?? [],
    deleted: done.deleted ?? [],
    gitCommit: null,
    undoneAt: null,
    createdAt: context.now(),
  };
  context.store.insertCommit(commit, heldBySandbox(sandbox.path, done.committed ?? {}));
  if (sandbox.status === 'ready') context.store.setStatus(sandbox.id, 'committed', context.now());
  context.emit({ type: 'recovered', planId: sandbox.planId, sandboxId: sandbox.id });
  return commit;
}

/**
 * The states of a recovered commit that the sandbox holds too, which count as its own (see
 * committedStates). A merge's result is in the original only, and which writes were merges is not
 * in the journal: the sandbox's own content tells (a file over the text limit is not read, so it
 * counts as someone else's, the safe side).
 */
function heldBySandbox(sandboxPath: string, committed: Record<string, CommittedState>): Record<string, CommittedState> {
  const held = (rel: string, state: CommittedState): boolean => {
    const entry = readSmallEntry(inRoot(sandboxPath, rel), TEXT_LIMIT);
    if (state.kind === 'absent') return entry?.type === null;
    if (state.kind === 'symlink') return entry?.type === 'symlink' && entry.data?.toString('utf8') === state.target;
    return entry?.type === 'file' && entry.sha256 === state.sha256;
  };
  return Object.fromEntries(Object.entries(committed).filter(([rel, state]) => held(rel, state)));
}

/**
 * Finishes what a killed discard or restore left in the trash folder; entries a live process is
 * still working on are left to it. A restore is run again, or its leftovers removed when it had
 * been recorded; a discard is finished or undone (see recoverDiscard).
 */
async function recoverTrash(context: EngineContext): Promise<RecoveryReport['trash']> {
  const found: RecoveryReport['trash'] = [];
  for (const item of await readDir(context.layout.trashDir)) {
    const trashPath = path.join(context.layout.trashDir, item.name);
    const discarding = await exists(path.join(trashPath, DISCARDING_FLAG));
    if (!item.isDirectory()) continue;
    if (!discarding && !(await exists(path.join(trashPath, RESTORING_FLAG)))) {
      // A discard killed between making its folder and setting its flag; rmdir takes only an empty one,
      // and a live discard whose folder goes now fails at its flag, before anything moved.
      if (await fs.rmdir(trashPath).then(() => true, () => false)) found.push({ trashId: item.name, sandboxId: null, outcome: 'kept', reason: `Its empty trash folder ${trashPath} was removed.` });
      continue;
    }
    if (await heldByLiveProcess(trashPath)) continue;
    const record = await readTrashRecord(trashPath).catch(() => null);
    if (!record && (await holdsOnlyFlags(trashPath))) {
      // A discard killed before its entry.json was written (nothing had moved), or a finished restore killed
      // while removing its entry (entry.json goes only then): the folder holds nothing of anyone's.
      await removeTrashFolder(trashPath);
      found.push({ trashId: item.name, sandboxId: null, outcome: 'kept', reason: `Its empty trash folder ${trashPath} was removed.` });
    }
    if (!record?.entry) continue;
    const { entry, sandbox } = record;
    const live = context.store.getTrash(entry.id);
    try {
      if (discarding && !live) found.push(await recoverDiscard(context, record, trashPath));
      else if (discarding) await fs.rm(path.join(trashPath, DISCARDING_FLAG), { force: true });
      else if (live) {
        await restoreTrash(context, entry.id);
        found.push({ trashId: entry.id, sandboxId: sandbox.id, outcome: 'restored' });
      } else await removeTrashFolder(trashPath);
    } catch (error) {
      const reason = `${(error as Error).message} Its files stay in ${trashPath}.`;
      logEvent(context, 'trash.recovery_failed', sandbox.planId, sandbox.id, `An interrupted discard or restore of the sandbox of ${sandbox.resourceName} could not be finished: ${reason}`);
      found.push({ trashId: entry.id, sandboxId: sandbox.id, outcome: 'failed', reason });
    }
  }
  return found;
}

/**
 * A killed discard is finished (the user had confirmed it) once the sandbox's files were complete
 * in the trash and its removal may have begun: with the `removing` flag (or a flag from before
 * there was one), or for a copy whose folder is gone (moved into the trash; one copied across
 * filesystems stays whole until `removing`). Earlier, the sandbox is whole, so
 * the half-made entry goes. Nothing is deleted when the sandbox's row changed since (in use again,
 * or discarded and provisioned anew): the discard's snapshot no longer speaks for it.
 */
async function recoverDiscard(context: EngineContext, record: TrashRecord, trashPath: string): Promise<RecoveryReport['trash'][number]> {
  const { entry, sandbox } = record;
  const current = context.store.getSandbox(sandbox.id);
  const unchanged = current?.status === sandbox.status && current.updatedAt === sandbox.updatedAt;
  const removalBegun =
    (await exists(path.join(trashPath, REMOVING_FLAG))) ||
    (await flagOwner(trashPath, DISCARDING_FLAG)) === null ||
    (sandbox.strategy !== 'git_worktree' && !(await exists(sandbox.path)));
  if (removalBegun && (await exists(path.join(trashPath, 'files')))) {
    if (!unchanged) {
      throw new ConflictError(`The sandbox changed since that discard began (it is ${current?.status ?? 'gone'} now), so nothing of it was deleted.`);
    }
    await finishDiscard(context, record);
    logEvent(context, 'sandbox.discarded', sandbox.planId, sandbox.id, `An interrupted discard of the sandbox of ${sandbox.resourceName} was finished at start; its files are in the trash (${entry.id}).`);
    return { trashId: entry.id, sandboxId: sandbox.id, outcome: 'discarded' };
  }
  if (unchanged) await putBack(sandbox, record.rootMode);
  await removeTrashFolder(trashPath);
  logEvent(context, 'sandbox.discard_undone', sandbox.planId, sandbox.id, `An interrupted discard of the sandbox of ${sandbox.resourceName} had not begun removing it; the sandbox is kept as it was.`);
  return { trashId: entry.id, sandboxId: sandbox.id, outcome: 'kept' };
}

/** True when a trash folder holds flags and at most an unreadable entry.json: nothing of a sandbox's files. */
async function holdsOnlyFlags(trashPath: string): Promise<boolean> {
  const flags = [DISCARDING_FLAG, REMOVING_FLAG, RESTORING_FLAG, 'entry.json'];
  return (await fs.readdir(trashPath)).every((name) => flags.includes(name));
}

/** The sandboxes a discard left in the trash folder is still about (finished later, or by hand): not missing, but going. */
async function discardsWaiting(trashDir: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const item of await readDir(trashDir)) {
    const trashPath = path.join(trashDir, item.name);
    if (!item.isDirectory() || !(await exists(path.join(trashPath, DISCARDING_FLAG)))) continue;
    const record = await readTrashRecord(trashPath).catch(() => null);
    if (record?.sandbox) ids.add(record.sandbox.id);
  }
  return ids;
}

async function removeTrashFolder(trashPath: string): Promise<void> {
  await makeFoldersWritable(trashPath);
  await fs.rm(trashPath, { recursive: true, force: true });
}

/** Entries at sandbox depth under the root (and stray files above it) that no registered sandbox owns. */
export async function findOrphans(context: EngineContext): Promise<string[]> {
  const { root } = context.layout;
  const orphans: string[] = [];
  for (const plan of await readDir(root)) {
    const planPath = path.join(root, plan.name);
    if (!plan.isDirectory()) {
      orphans.push(planPath);
      continue;
    }
    for (const child of await readDir(planPath)) {
      const childPath = path.join(planPath, child.name);
      const owner = child.name.endsWith(META_SUFFIX) ? childPath.slice(0, -META_SUFFIX.length) : childPath;
      if (!context.store.isRegisteredPath(owner)) orphans.push(childPath);
    }
  }
  return orphans;
}

async function readDir(dir: string): Promise<import('node:fs').Dirent[]> {
  return fs.readdir(dir, { withFileTypes: true }).catch(() => []);
}

async function isDirectory(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (stat) => stat.isDirectory(),
    () => false,
  );
}
