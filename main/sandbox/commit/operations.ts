/**
 * Turns a sandbox's changes into journal operations without writing anything: the selected paths
 * (all by default), conflicts blocked unless resolved (ours: keep the original; theirs: take the
 * sandbox; merge: three-way where a base exists), each op carrying the state the original had
 * at check time so the journal refuses to clobber anything that moves before the write.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { ConflictError, ValidationError } from '../../../shared/errors.ts';
import { assertReviewed, inspectedVersion } from '../changes/index.ts';
import { committedMode, inspectChanges, type InspectedChange, type OwnCommits, type PathState } from '../changes/index.ts';
import { inspectSelected } from '../changes/index.ts';
import { unreadableError } from '../changes/index.ts';
import type { DiskEntry } from '../changes/index.ts';
import { decodeName, displayPath, inRoot } from '../fs/index.ts';
import type { Expectation, KnownContent, SeenStat, TransactionOp } from './journal/index.ts';
import { mergeThreeWay } from './merge.ts';
import { selectionsFor, stageSelection, type HunkConflict } from './partial.ts';
import type { PatchSelection } from '../../../shared/patch-selection.ts';
import type { ResolutionValue, SandboxInfo } from '../../../shared/dto.ts';

/** What the caller chose. */
export interface CommitSelection {
  /** Paths to commit (new or old path of a change; a folder ending in `/` for every change under it); all changes when absent, none (refused) when empty. */
  paths?: string[];
  /** The version of the change list the person reviewed (change-version.ts): any other list is refused, with nothing written. */
  expectedVersion?: string;
  /** How each conflicting path is settled. */
  resolutions?: Record<string, ResolutionValue>;
  /** Paths (of the chosen changes) to commit in part: only these hunks and lines of their text change. */
  selections?: Record<string, PatchSelection>;
}

/** A path that blocks the commit, and why. */
export interface BlockedPath {
  path: string;
  reason: string;
}

/** The ops of one sandbox's commit. */
export interface CommitPlan {
  sandbox: SandboxInfo;
  ops: TransactionOp[];
  /** Paths left alone: already applied, or kept as the original ("ours"). */
  skipped: string[];
  blocked: BlockedPath[];
  /** Merged files written for the journal to copy; removed after the commit. */
  tempFiles: string[];
  /** Folders above deleted paths that the sandbox no longer has: the commit removes them from the original once empty. */
  removeDirs: string[];
  /** Resolutions naming no path this commit chose (a plan's commit checks them over all its sandboxes). */
  unmatchedResolutions: string[];
  /** Changes of the sandbox not applied to the original once this commit is written (from the list it worked from). */
  left: number;
  /** Paths written with only some of their changes; of the selections, those written onto an untouched original (wholly the sandbox's doing); and chosen hunks that changed in the original too (any refuses the commit). */
  partial: string[];
  ownSelections: string[];
  hunkConflicts: HunkConflict[];
}

/**
 * Plans the commit of `sandbox` (`ownCommits`: what its earlier commits left in the original);
 * throws for a sandbox that cannot be committed at all.
 */
export async function planCommit(sandbox: SandboxInfo, selection: CommitSelection, tempDir: string, ownCommits?: OwnCommits): Promise<CommitPlan> {
  assertCommittable(sandbox);
  assertSelected(selection.paths);
  // Taken before any file is hashed, so the journal can tell which hashes a later stat still proves.
  const hashedAtMs = Date.now();
  // The reviewed list, when this process still holds it, spares listing the whole sandbox again.
  const listed = selection.expectedVersion !== undefined && selection.paths ? await inspectSelected(sandbox, selection.expectedVersion, selection.paths, ownCommits) : null;
  // Without line counts: a commit shows none, and the list's version leaves them out (a git call saved).
  const inspected = listed?.inspected ?? (await inspectChanges(sandbox, tempDir, ownCommits, { counts: false }));
  // Checked against the very list the ops are made from, so nothing unreviewed slips in between.
  if (!listed && selection.expectedVersion !== undefined) assertReviewed(selection.expectedVersion, inspectedVersion(inspected, sandbox.strategy), sandbox);
  const chosen = select(inspected, selection.paths, sandbox);
  const resolutions = selection.resolutions ?? {};
  const resolutionOf = (change: InspectedChange['change']) => resolutions[change.path] ?? (change.oldPath !== null ? resolutions[change.oldPath] : undefined);
  // Only a commit that includes a path it cannot read, or a special file (a FIFO), is refused, before anything is made for it.
  const unreadable = chosen.filter((c) => c.change.unreadable && resolutionOf(c.change) !== 'ours').map((c) => c.change);
  if (unreadable.length > 0) throw unreadableError(unreadable, sandbox.resourceName);
  const plan: CommitPlan = { sandbox, ops: [], skipped: [], blocked: [], tempFiles: [], removeDirs: [], unmatchedResolutions: unmatched(resolutions, chosen), left: 0, partial: [], ownSelections: [], hunkConflicts: [] };
  const selectionOf = selectionsFor(chosen, selection.selections, sandbox);
  const picked = new Set(chosen);
  plan.left = (listed?.othersLeft ?? 0) + inspected.filter((c) => !picked.has(c) && c.change.drift !== 'applied').length;
  for (const item of chosen) {
    const { change } = item;
    // A deletion write_only cannot make stays a change of the sandbox, as a path kept as the original does.
    if (sandbox.access === 'write_only' && change.kind === 'deleted') {
      if (change.drift !== 'applied') plan.left++;
      continue;
    }
    if (change.drift === 'applied') {
      plan.skipped.push(change.path);
      continue;
    }
    const part = selectionOf(change);
    if (part && resolutionOf(change) !== 'ours') {
      await selectedWrite(item, part, resolutionOf(change), tempDir, plan, hashedAtMs);
      continue;
    }
    if (change.drift === 'conflict') {
      const resolution = resolutionOf(change);
      if (!resolution) {
        plan.blocked.push({ path: change.path, reason: change.driftReason ?? 'it changed in the original too' });
        continue;
      }
      if (resolution === 'ours') {
        plan.left++;
        plan.skipped.push(change.path);
        continue;
      }
      if (resolution === 'merge') {
        plan.ops.push(await mergedWrite(item, tempDir, plan, hashedAtMs));
        continue;
      }
    }
    plan.ops.push(...opsFor(item, sandbox, hashedAtMs));
  }
  plan.removeDirs = foldersGoneFromSandbox(sandbox, plan.ops);
  return plan;
}

/** The folders above the deleted paths that are gone from the sandbox (git keeps no empty folders either). */
function foldersGoneFromSandbox(sandbox: SandboxInfo, ops: readonly TransactionOp[]): string[] {
  const gone = new Set<string>();
  const kept = new Set<string>();
  for (const op of ops) {
    if (op.kind !== 'delete') continue;
    for (let slash = op.relPath.lastIndexOf('/'); slash > 0; slash = op.relPath.lastIndexOf('/', slash - 1)) {
      const folder = op.relPath.slice(0, slash);
      if (gone.has(folder) || kept.has(folder)) continue;
      (isFolder(inRoot(sandbox.path, folder)) ? kept : gone).add(folder);
    }
  }
  return [...gone];
}

function isFolder(at: string | Buffer): boolean {
  try {
    return fsSync.lstatSync(at, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** Refuses an empty selection: all is the absence of paths, so an empty list selects nothing. */
export function assertSelected(paths: readonly string[] | undefined): void {
  if (paths?.length === 0) throw new ValidationError('No paths selected: choose files to commit, or commit all.', { paths: [] });
}

/** Throws the ConflictError that blocks a commit, listing every blocked path. */
export function conflictError(blocked: BlockedPath[], what: string): ConflictError {
  const lines = blocked.slice(0, 20).map((b) => `  - ${displayPath(b.path)}: ${b.reason}`);
  const more = blocked.length > 20 ? `\n  ... and ${blocked.length - 20} more` : '';
  return new ConflictError(
    `${what}: ${blocked.length} path(s) changed in the original too, so nothing was written.\n${lines.join('\n')}${more}\n` +
      'Choose for each: Keep original (ours), Take sandbox (theirs), or Merge (merge).',
    { paths: blocked, hints: [{ action: 'resolve', paths: blocked.map((b) => b.path), choices: ['ours', 'theirs', 'merge'] }] },
  );
}

function assertCommittable(sandbox: SandboxInfo): void {
  if (sandbox.strategy === 'none') {
    throw new ValidationError(`The sandbox of ${sandbox.resourceName} uses strategy none: changes happen in place in ${sandbox.originalPath}, so there is nothing to commit.`);
  }
  if (sandbox.access === 'read_only') {
    throw new ValidationError(`The sandbox of ${sandbox.resourceName} is read_only and cannot be committed. Discard it instead.`);
  }
  if (sandbox.status !== 'ready' && sandbox.status !== 'committed') {
    throw new ConflictError(`The sandbox of ${sandbox.resourceName} is ${sandbox.status}; only a ready sandbox can be committed.`);
  }
}

/** The changes `paths` name: a path (the new or old one of a change), or a folder written with a trailing `/`, for every change under it. */
function select(inspected: InspectedChange[], paths: string[] | undefined, sandbox: SandboxInfo): InspectedChange[] {
  if (paths === undefined) return inspected;
  const matched = new Set<string>();
  const names = (c: InspectedChange) => [c.change.path, ...(c.change.oldPath === null ? [] : [c.change.oldPath])];
  const chosen = inspected.filter((c) => {
    const hits = paths.filter((p) => names(c).some((name) => (p.endsWith('/') ? name.startsWith(p) : name === p)));
    for (const hit of hits) matched.add(hit);
    return hits.length > 0;
  });
  const unknown = paths.filter((p) => !matched.has(p));
  if (unknown.length > 0) {
    throw new ValidationError(
      `${unknown.map((p) => displayPath(p)).join(', ')} ${unknown.length === 1 ? 'has' : 'have'} no change in the sandbox of ${sandbox.resourceName}: look at the list of the plan's changes.`,
      { unknown, hints: [{ action: 'list-changes', plan: sandbox.planId }] },
    );
  }
  return chosen;
}

function unmatched(resolutions: Record<string, ResolutionValue>, chosen: InspectedChange[]): string[] {
  const known = new Set(chosen.flatMap((c) => [c.change.path, c.change.oldPath]));
  return Object.keys(resolutions).filter((p) => !known.has(p));
}

/** Refuses resolutions that name no change being committed (a typo would otherwise pass silently). */
export function checkResolutions(unknown: string[]): void {
  if (unknown.length > 0) throw new ValidationError(`A conflict choice names ${unknown.map(displayPath).join(', ')}, which is not among the changes being committed.`, { unknown });
}

/** An entry change detection read (a file, where it is used). */
type ReadFile = Extract<DiskEntry, { sha256: string }>;

/**
 * The stat of a file change detection hashed, taken now, after the hash: the journal trusts that
 * hash while the file keeps this stat, unless it changed within the racy window of `hashedAtMs`.
 */
function seenStat(entry: ReadFile, at: string | Buffer, hashedAtMs: number): SeenStat | undefined {
  let stat: fsSync.Stats | undefined;
  try {
    stat = fsSync.lstatSync(at, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (!stat?.isFile() || stat.ino !== entry.ino || stat.size !== entry.size || stat.mtimeMs !== entry.mtimeMs) return undefined;
  return { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, hashedAtMs };
}

/** A file's content as change detection hashed it, with the stat that lets the journal trust it. */
function knownContent(entry: ReadFile, at: string | Buffer, hashedAtMs: number): KnownContent {
  const seen = seenStat(entry, at, hashedAtMs);
  return seen ? { sha256: entry.sha256, seen } : { sha256: entry.sha256 };
}

/** The state the original had at check time (at `at`), as a journal expectation. */
export function expectationOf(entry: DiskEntry, relPath: string, at: string | Buffer, hashedAtMs: number): Expectation {
  if (entry.type === null) return { kind: 'absent' };
  if (entry.type === 'file') return { kind: 'file', ...knownContent(entry, at, hashedAtMs) };
  if (entry.type === 'symlink') return { kind: 'symlink', target: entry.data ? decodeName(entry.data) : '' };
  throw new ConflictError(`${displayPath(relPath)} in the original is not a file or symlink; move it away and commit again.`);
}

function opsFor(item: InspectedChange, sandbox: SandboxInfo, hashedAtMs: number): TransactionOp[] {
  const ops: TransactionOp[] = [];
  const { change, target, source } = item;
  const deleteOp = (state: PathState): TransactionOp => ({
    relPath: state.rel,
    kind: 'delete',
    expect: expectationOf(state.original, state.rel, inRoot(sandbox.originalPath, state.rel), hashedAtMs),
  });
  if (source) ops.push(deleteOp(source));
  if (change.kind === 'deleted') ops.push(deleteOp(target));
  else {
    // The journal takes paths with escaped bytes (see ../fs/paths.ts); the stat here needs the exact bytes.
    const sourcePath = path.join(sandbox.path, target.rel);
    const now = target.sandbox;
    const known = now.type === 'file' ? knownContent(now, inRoot(sandbox.path, target.rel), hashedAtMs) : undefined;
    ops.push(writeOp(sandbox, target, sourcePath, hashedAtMs, known));
  }
  return ops;
}

function writeOp(sandbox: SandboxInfo, target: PathState, sourcePath: string, hashedAtMs: number, sourceContent?: KnownContent): TransactionOp {
  const mode = target.sandbox.type === 'file' ? committedMode(target, target.sandbox.mode) : undefined;
  return {
    relPath: target.rel,
    kind: 'write',
    sourcePath,
    ...(mode === undefined ? {} : { mode }),
    ...(sourceContent ? { sourceContent } : {}),
    expect: expectationOf(target.original, target.rel, inRoot(sandbox.originalPath, target.rel), hashedAtMs),
  };
}

async function mergedWrite(item: InspectedChange, tempDir: string, plan: CommitPlan, hashedAtMs: number): Promise<TransactionOp> {
  const { target, change } = item;
  const texts = [target.baseContent, target.original.type === 'file' ? target.original.data : null, target.sandbox.type === 'file' ? target.sandbox.data : null];
  const originalBinary = target.original.type === 'file' && target.original.binary;
  if (item.source || change.binary || originalBinary || texts.some((t) => t === null)) {
    throw new ValidationError(
      `${displayPath(change.path)} cannot be merged: a three-way merge needs a text file on both sides and its base (kept for git worktrees; for copies only while the original is unchanged). Choose Keep original (ours) or Take sandbox (theirs).`,
      { path: change.path, hints: [{ action: 'resolve', paths: [change.path], choices: ['ours', 'theirs'] }] },
    );
  }
  const merged = await mergeThreeWay(texts[0]!, texts[1]!, texts[2]!, tempDir, displayPath(change.path));
  if (merged.kind === 'conflicts') {
    throw new ConflictError(
      `Merging ${displayPath(change.path)} left ${merged.count} conflicting hunk(s); nothing was written. Choose Keep original (ours) or Take sandbox (theirs), or edit the file in the sandbox and commit again.`,
      { paths: [{ path: change.path, reason: `${merged.count} conflicting hunk(s) in the merge` }], hints: [{ action: 'resolve', paths: [change.path], choices: ['ours', 'theirs'] }] },
    );
  }
  await fs.mkdir(tempDir, { recursive: true });
  const file = path.join(tempDir, `merged-${ulid()}`);
  await fs.writeFile(file, merged.content);
  plan.tempFiles.push(file);
  return writeOp(plan.sandbox, target, file, hashedAtMs);
}

/** Stages a file committed in part as a temp file; its write carries the staged bytes' hash, which the journal checks its copy against. */
async function selectedWrite(item: InspectedChange, part: PatchSelection, resolution: ResolutionValue | undefined, tempDir: string, plan: CommitPlan, hashedAtMs: number): Promise<void> {
  const staged = await stageSelection(item, part, resolution, tempDir);
  if (staged.kind === 'conflict') return void plan.hunkConflicts.push(staged);
  plan.tempFiles.push(staged.file);
  plan.ops.push(writeOp(plan.sandbox, item.target, staged.file, hashedAtMs, { sha256: staged.sha256 }));
  if (staged.own) plan.ownSelections.push(item.change.path);
  if (staged.whole) return;
  // The rest of the file's change stays pending in the sandbox.
  plan.partial.push(item.change.path);
  plan.left++;
}
