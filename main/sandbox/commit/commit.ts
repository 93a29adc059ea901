/**
 * Commit orchestration (DESIGN 2.3): plan, refuse on conflicts, hand the ops to the crash-safe
 * journal, record the commit for undo, and optionally commit on the git branch. commitAll plans
 * every sandbox first and writes nothing if any is blocked; if one drifts while writing, the
 * sandboxes already written are undone.
 */
import fs from 'node:fs/promises';
import { ulid } from 'ulid';
import { BinderyError, ConflictError, NotFoundError } from '../../../shared/errors.ts';
import { expectedFor } from '../changes/index.ts';
import { withSandboxLocks } from './lock.ts';
import { checkResolutions, conflictError, planCommit, type CommitPlan, type CommitSelection } from './operations.ts';
import { hunkConflictError } from './partial.ts';
import { logEvent, type EngineContext } from '../context.ts';
import { displayPath } from '../fs/index.ts';
import { commitPaths, currentBranch } from './git-commit.ts';
import { leftList, type CommitProgress, type DriftedPath } from './journal/index.ts';
import type { CommitInfo, CommittedState, SandboxInfo } from '../../../shared/dto.ts';
import { noteRecovered } from '../recovery/index.ts';

/** Options of a commit. */
export interface CommitOptions extends CommitSelection {
  /** Also commit on the original's current branch with this message (git originals only). */
  gitCommit?: { message: string } | null;
  /** commitAll: the version of each sandbox's reviewed change list, by sandbox id; a sandbox left out counts as reviewed with no changes. */
  expectedVersions?: Record<string, string>;
  signal?: AbortSignal;
  onProgress?: (progress: CommitProgress) => void;
}

/** What a commit did. */
export type CommitOutcome = (
  | { kind: 'committed'; sandboxId: string; commit: CommitInfo; skipped: string[]; /** Written paths that took only some of their changes. */ partial: string[] }
  | { kind: 'nothing'; sandboxId: string; skipped: string[]; reason: string }
) & {
  /** Changes of the sandbox still not in the original, as the commit's own list counted them (no second listing). */
  left?: number;
};

/** Commits one sandbox. */
export async function commitSandbox(context: EngineContext, sandbox: SandboxInfo, options: CommitOptions): Promise<CommitOutcome> {
  // Held from the first look to the commit's record, so another process's commit cannot come between them.
  return withSandboxLocks(context, [sandbox], 'committing to', () => commitSandboxLocked(context, context.store.getSandbox(sandbox.id) ?? sandbox, options), options.signal);
}

async function commitSandboxLocked(context: EngineContext, sandbox: SandboxInfo, options: CommitOptions): Promise<CommitOutcome> {
  const plan = await planCommit(sandbox, options, context.layout.tempDir, context.store.committedStates(sandbox.id));
  try {
    checkResolutions(plan.unmatchedResolutions);
    if (plan.blocked.length > 0) throw conflictError(plan.blocked, `Commit of ${sandbox.resourceName} blocked`);
    if (plan.hunkConflicts.length > 0) throw hunkConflictError(plan.hunkConflicts, `Commit of ${sandbox.resourceName} blocked`);
    const branch = options.gitCommit ? await currentBranch(sandbox.originalPath) : null;
    return await apply(context, plan, options, branch);
  } finally {
    await removeTemp(plan);
  }
}

/** Commits every committable sandbox of a plan, all checked before any is written. */
export async function commitAll(context: EngineContext, sandboxes: SandboxInfo[], options: CommitOptions): Promise<CommitOutcome[]> {
  const fresh = () => sandboxes.map((s) => context.store.getSandbox(s.id) ?? s);
  return withSandboxLocks(context, sandboxes, 'committing to', () => commitAllLocked(context, fresh(), options), options.signal);
}

async function commitAllLocked(context: EngineContext, sandboxes: SandboxInfo[], options: CommitOptions): Promise<CommitOutcome[]> {
  const live = sandboxes.filter((s) => s.strategy !== 'none' && s.access !== 'read_only' && (s.status === 'ready' || s.status === 'committed'));
  const plans: CommitPlan[] = [];
  try {
    for (const sandbox of live) {
      // Hunks and lines are chosen in one sandbox's files: a plan's commit takes whole files.
      const selection = { resolutions: options.resolutions, expectedVersion: expectedFor(options.expectedVersions, sandbox.id) };
      plans.push(await planCommit(sandbox, selection, context.layout.tempDir, context.store.committedStates(sandbox.id)));
    }
    // A resolution settles that path in each sandbox that changed it; it must name a change of at least one.
    checkResolutions(Object.keys(options.resolutions ?? {}).filter((p) => plans.every((plan) => plan.unmatchedResolutions.includes(p))));
    const blocked = plans.flatMap((p) => p.blocked.map((b) => ({ ...b, reason: `${p.sandbox.resourceName}: ${b.reason}` })));
    if (blocked.length > 0) throw conflictError(blocked, 'Commit of the plan blocked');
    const branches = new Map<string, string>();
    if (options.gitCommit) for (const p of plans) branches.set(p.sandbox.id, await currentBranch(p.sandbox.originalPath));
    const outcomes: CommitOutcome[] = [];
    for (const p of plans) {
      try {
        outcomes.push(await apply(context, p, options, branches.get(p.sandbox.id) ?? null));
      } catch (error) {
        throw withKept(error, await undoApplied(context, outcomes));
      }
    }
    return outcomes;
  } finally {
    for (const p of plans) await removeTemp(p);
  }
}

/** Undoes the newest commit of a sandbox that is not undone yet. */
export async function undoLastCommit(context: EngineContext, sandbox: SandboxInfo): Promise<{ restored: string[]; gitCommit: string | null }> {
  return withSandboxLocks(context, [sandbox], 'undoing a commit to', () => undoLocked(context, sandbox));
}

async function undoLocked(context: EngineContext, sandbox: SandboxInfo): Promise<{ restored: string[]; gitCommit: string | null }> {
  const commit = context.store.lastCommit(sandbox.id);
  if (!commit) throw new NotFoundError(`The sandbox of ${sandbox.resourceName} has no commit to undo.`, { sandboxId: sandbox.id });
  let result: Awaited<ReturnType<EngineContext['journal']['undoTransaction']>>;
  try {
    result = await context.journal.undoTransaction({
      journalDir: context.layout.journalDir,
      targetRoot: sandbox.originalPath,
      transactionId: commit.transactionId,
      onRecovered: (done) => noteRecovered(context, done, `before this undo, once ${sandbox.originalPath} was back`),
    });
  } catch (error) {
    if (!(error instanceof ConflictError && (error.details as { state?: string } | undefined)?.state === 'undone')) throw error;
    // The journal has it undone, but its end was not recorded here (a crash right after it, or recovery finished it just now).
    context.store.transaction(() => {
      context.store.markCommitUndone(commit.id, context.now());
      context.store.setStatus(sandbox.id, 'ready', context.now());
      logEvent(context, 'commit.undone', sandbox.planId, sandbox.id, `The last commit of ${sandbox.resourceName} had already been undone; it is now recorded as undone.`);
    });
    context.emit({ type: 'status', planId: sandbox.planId, sandboxId: sandbox.id, status: 'ready' });
    return { restored: [], gitCommit: commit.gitCommit };
  }
  if (result.kind === 'drifted') {
    throw new ConflictError(
      `Undo refused: ${result.paths.length} file(s) in ${sandbox.originalPath} changed after the commit (${result.paths.map((p) => p.relPath).join(', ')}). Nothing was restored.`,
      { paths: result.paths.map((p) => ({ path: p.relPath, reason: p.reason })) },
    );
  }
  const note = commit.gitCommit ? ` The git commit ${commit.gitCommit.slice(0, 12)} stays on the branch; revert it with git if needed.` : '';
  context.store.transaction(() => {
    context.store.markCommitUndone(commit.id, context.now());
    context.store.setStatus(sandbox.id, 'ready', context.now());
    logEvent(context, 'commit.undone', sandbox.planId, sandbox.id, `Undid the commit of ${sandbox.resourceName}: ${result.restored.length} file(s) restored.${note}`);
  });
  context.emit({ type: 'status', planId: sandbox.planId, sandboxId: sandbox.id, status: 'ready' });
  return { restored: result.restored, gitCommit: commit.gitCommit };
}

async function apply(context: EngineContext, plan: CommitPlan, options: CommitOptions, branch: string | null): Promise<CommitOutcome> {
  const { sandbox } = plan;
  if (plan.ops.length === 0) return { kind: 'nothing', sandboxId: sandbox.id, skipped: plan.skipped, reason: 'no changes left to write', left: plan.left };
  const result = await context.journal.applyTransaction({
    journalDir: context.layout.journalDir,
    targetRoot: sandbox.originalPath,
    ops: plan.ops,
    removeDirs: plan.removeDirs,
    signal: options.signal,
    labels: { sandboxId: sandbox.id, planId: sandbox.planId },
    onProgress: options.onProgress,
    onRecovered: (done) => noteRecovered(context, done, `before this commit, once ${sandbox.originalPath} was back`),
  }).catch((error: unknown) => {
    // A failed commit whose undoing left paths behind is in the log too, with what is left.
    if ((error as BinderyError).details && (error as { details: { untouched?: unknown[] } }).details.untouched?.length) {
      logEvent(context, 'commit.rolled_back', sandbox.planId, sandbox.id, (error as Error).message);
    }
    throw error;
  });
  if (result.kind === 'drifted' && result.untouched?.length) throw partlyUndone(context, sandbox, result.paths, result.untouched, result.backupDir ?? '');
  if (result.kind === 'drifted') {
    throw conflictError(
      result.paths.map((p) => ({ path: p.relPath, reason: `changed between the check and the write: ${p.reason}` })),
      `Commit of ${sandbox.resourceName} stopped`,
    );
  }
  const onBranch = branch && options.gitCommit ? await commitPaths(sandbox.originalPath, branch, [...result.written, ...result.deleted], options.gitCommit.message, context.layout.tempDir) : null;
  const gitCommit = onBranch?.commit ?? null;
  const commit: CommitInfo = {
    id: ulid(),
    sandboxId: sandbox.id,
    planId: sandbox.planId,
    transactionId: result.transactionId,
    written: result.written,
    deleted: result.deleted,
    gitCommit,
    undoneAt: null,
    createdAt: context.now(),
  };
  const leftOut = onBranch?.ignored.length ? ` (${onBranch.ignored.length} ignored file(s) left out of it: ${onBranch.ignored.slice(0, 5).map(displayPath).join(', ')})` : '';
  const how = onBranch ? ` and committed as ${onBranch.commit.slice(0, 12)} on ${branch}${leftOut}` : '';
  // One registry transaction: a kill between the commit's row and its status would leave a recorded
  // commit recovery has nothing to do for, with the sandbox still "ready" and no line in the log.
  context.store.transaction(() => {
    context.store.insertCommit(commit, ownStates(plan, result.committed));
    context.store.setStatus(sandbox.id, 'committed', context.now());
    logEvent(context, 'commit', sandbox.planId, sandbox.id, `Committed ${result.written.length} written, ${result.deleted.length} deleted into ${sandbox.originalPath}${how}.`);
  });
  context.emit({ type: 'status', planId: sandbox.planId, sandboxId: sandbox.id, status: 'committed' });
  return { kind: 'committed', sandboxId: sandbox.id, commit, skipped: plan.skipped, partial: plan.partial, left: plan.left };
}

/**
 * What the commit left that the sandbox itself holds: a merge's result (or a selection put onto an
 * original someone changed) is written to the original only, so it stays someone else's doing
 * there (the sandbox's next commit must not pass over it). A selection onto an untouched original
 * is the sandbox's own: the rest of its change then reads as pending against it.
 */
function ownStates(plan: CommitPlan, committed: Record<string, CommittedState>): Record<string, CommittedState> {
  const own = new Set(plan.ownSelections);
  const merged = new Set(plan.ops.filter((op) => op.kind === 'write' && plan.tempFiles.includes(op.sourcePath) && !own.has(op.relPath)).map((op) => op.relPath));
  return Object.fromEntries(Object.entries(committed).filter(([rel]) => !merged.has(rel)));
}

/**
 * A commit stopped by a change meanwhile whose undoing could not put every path back (a folder was
 * swapped under it): what stopped it, exactly which paths are left and where their backups are.
 */
function partlyUndone(context: EngineContext, sandbox: SandboxInfo, stopped: DriftedPath[], left: DriftedPath[], backupDir: string): BinderyError {
  const message =
    `Commit of ${sandbox.resourceName} stopped: ${stopped.map((p) => `${p.relPath} (${p.reason})`).slice(0, 3).join('; ')}. ` +
    `Undoing what it had written left ${left.length} path(s) in ${sandbox.originalPath} not as before: ${leftList(left)} ` +
    `Their versions from before the commit are kept in ${backupDir}; put them back by hand once the folders are right.`;
  logEvent(context, 'commit.rolled_back', sandbox.planId, sandbox.id, message);
  return new BinderyError('conflict', message, { stopped, untouched: left, backupDir });
}

/** Undoes the commits already written; returns those whose undo failed (they stay committed) and why. */
async function undoApplied(context: EngineContext, outcomes: CommitOutcome[]): Promise<Array<{ sandbox: SandboxInfo; reason: string }>> {
  const kept: Array<{ sandbox: SandboxInfo; reason: string }> = [];
  for (const outcome of outcomes.reverse()) {
    if (outcome.kind !== 'committed') continue;
    const row = context.store.getSandbox(outcome.sandboxId);
    if (!row) continue;
    await undoLastCommit(context, row).catch((error: unknown) => kept.push({ sandbox: row, reason: error instanceof Error ? error.message : String(error) }));
  }
  return kept;
}

/** The failure of a commitAll, saying which commits written before it stay (their undo failed): never "nothing was written" over them. */
function withKept(error: unknown, kept: Array<{ sandbox: SandboxInfo; reason: string }>): unknown {
  if (kept.length === 0 || !(error instanceof Error)) return error;
  const list = kept.map(({ sandbox, reason }) => `the commit of ${sandbox.resourceName} to ${sandbox.originalPath} stays, as undoing it was refused (${reason})`).join('; ');
  error.message += ` Of the sandboxes committed before it, ${list}: undo it from that sandbox once resolved.`;
  if (error instanceof BinderyError && typeof error.details === 'object' && error.details) Object.assign(error.details, { stillCommitted: kept.map(({ sandbox }) => sandbox.id) });
  return error;
}

async function removeTemp(plan: CommitPlan): Promise<void> {
  await Promise.all(plan.tempFiles.map((file) => fs.rm(file, { force: true })));
}
