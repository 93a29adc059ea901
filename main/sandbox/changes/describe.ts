/**
 * What one path's states amount to (DESIGN 2.2): its kind of change against the base, binary or
 * text and its line counts (a content change's are left to counts.ts, all at once), and its drift
 * against the original as it is now: clean, conflict, or already applied.
 */
import type { ChangedFile, CommittedState, SandboxInfo } from '../../../shared/dto.ts';
import { lineCounts, sameContent, type DiskEntry } from './content.ts';
import type { BaseInfo, PathState } from './detect.ts';
import { sameInstant } from './manifest.ts';
import { unreadableChange } from './unreadable.ts';

/** True when `disk` is what a commit left (content, mode, type; nothing for a deletion). */
export function holds(disk: DiskEntry, committed: CommittedState | undefined): boolean {
  if (!committed) return false;
  if (committed.kind === 'absent') return disk.type === null;
  if (committed.kind === 'symlink') return disk.type === 'symlink' && disk.data?.toString('utf8') === committed.target;
  return disk.type === 'file' && disk.sha256 === committed.sha256 && disk.mode === committed.mode;
}

/**
 * True when the original holds what this sandbox last committed at this path (not undone) and the
 * sandbox holds more (a partial commit's rest): the original, not the base, is then the old side
 * of what is still pending. A change wholly committed keeps the base as its old side.
 */
export function holdsOwnCommit(state: Pick<PathState, 'original' | 'ownCommit' | 'sandbox'>): boolean {
  return state.ownCommit !== null && holds(state.original, state.ownCommit) && !sameContent(state.original, state.sandbox);
}

/** Whether the sandbox holds the base's content at this path: true, false, or null when it cannot be told. */
function sandboxIsBase(state: PathState): boolean | null {
  const { base, sandbox } = state;
  if (base === null || sandbox.type === null || sandbox.type === 'other' || sandbox.type !== base.entry.type) return false;
  if (base.kind === 'git') return sandbox.blobId === base.entry.blob;
  if (sandbox.type === 'symlink') return sandbox.data?.toString('utf8') === base.entry.target;
  if (base.entry.sha256 !== undefined) return sandbox.sha256 === base.entry.sha256;
  if (state.originalIsBase && state.original.type === 'file') return sandbox.sha256 === state.original.sha256;
  return null;
}

/** The change at one path, or null when it has none. */
export function describe(state: PathState, sandbox: SandboxInfo): ChangedFile | null {
  const { unreadable } = state;
  if (!unreadable) return describeRead(state, sandbox);
  return unreadableChange(state, unreadable, unreadable.side === 'original' ? describeRead(state, sandbox) : null);
}

function describeRead(state: PathState, sandbox: SandboxInfo): ChangedFile | null {
  const { base, sandbox: now } = state;
  if (now.type === 'other') return null;
  if (base === null && now.type === null) return null;
  const oldType = base?.entry.type ?? null;
  const oldMode = base ? base.entry.mode : null;
  const newMode = now.type === null ? null : now.mode;
  let kind: ChangedFile['kind'];
  if (base === null) kind = 'added';
  else if (now.type === null) kind = 'deleted';
  else if (now.type !== base.entry.type) kind = 'type_changed';
  else if (sandboxIsBase(state)) {
    if (!modeDiffers(base, newMode as number, sandbox.access)) return null;
    kind = 'mode_changed';
  } else kind = 'modified';
  const binary = (now.type !== null && now.binary) || (state.baseContent?.subarray(0, 8000).includes(0) ?? false);
  const counts = binary ? null : countLines(state, kind);
  return {
    path: state.rel,
    oldPath: null,
    kind,
    oldType,
    newType: now.type,
    oldMode,
    newMode,
    size: now.type === null ? null : now.size,
    binary,
    additions: counts?.additions ?? null,
    deletions: counts?.deletions ?? null,
    ...drift(state, sandbox),
  };
}

function modeDiffers(base: NonNullable<BaseInfo>, mode: number, access: SandboxInfo['access']): boolean {
  if (base.kind === 'git' || base.entry.type === 'symlink') return base.entry.type === 'file' && (base.entry.mode & 0o111) !== (mode & 0o111);
  const mask = access === 'read_only' ? 0o7555 : 0o7777;
  return (base.entry.mode & mask) !== (mode & mask);
}

/** The counts of an added, deleted or mode-changed path; a content change's are left to fillCounts (counts.ts), all at once. */
function countLines(state: PathState, kind: ChangedFile['kind']): { additions: number; deletions: number } | null {
  if (kind === 'modified' || kind === 'type_changed') return null;
  if (kind === 'mode_changed') return { additions: 0, deletions: 0 };
  const now = state.sandbox;
  const after = now.type === null ? '' : now.type === 'other' ? undefined : now.data?.toString('utf8');
  const before = kind === 'added' ? '' : state.baseContent?.toString('utf8');
  if (after === undefined || before === undefined) return null;
  return lineCounts(before, after);
}

/**
 * The permission bits a write gives the original, merged three ways: the sandbox's where the tool
 * changed them, the original's where it did not, so a content edit keeps a 0600 file private and
 * a chmod made in the original meanwhile stays. A worktree records only the executable bit (its
 * checkout makes files 0644 or 0755), so there only a change of that bit is the tool's.
 */
export function committedMode(target: PathState, sandboxMode: number): number {
  const { base, original } = target;
  if (original.type !== 'file' || base === null || base.entry.type !== 'file') return sandboxMode;
  if (base.kind === 'copy') return sandboxMode === base.entry.mode ? original.mode : sandboxMode;
  const executable = (sandboxMode & 0o100) !== 0;
  if (executable === ((base.entry.mode & 0o100) !== 0)) return original.mode;
  // Execute for whoever may read, as git gives it; taken away from everyone.
  return executable ? original.mode | ((original.mode & 0o444) >> 2) : original.mode & ~0o111;
}

/** True when the original already holds what committing this path would write: its content, type and mode. */
function alreadyThere(state: PathState): boolean {
  const { original, sandbox } = state;
  if (!sameContent(original, sandbox)) return false;
  return original.type !== 'file' || sandbox.type !== 'file' || original.mode === committedMode(state, sandbox.mode);
}

function drift(state: PathState, sandbox: SandboxInfo): Pick<ChangedFile, 'drift' | 'driftReason'> {
  if (alreadyThere(state)) return { drift: 'applied', driftReason: null };
  // Where this sandbox committed before, the original is untouched while it holds that commit (even the base put back is someone's change).
  if (state.ownCommit ? holds(state.original, state.ownCommit) : state.originalIsBase) return { drift: 'clean', driftReason: null };
  const now = state.original.type;
  let reason: string;
  if (state.ownCommit) reason = `it changed in ${sandbox.originalPath} after this sandbox committed it`;
  else if (state.base === null && now === 'other') reason = `${sandbox.originalPath} has a folder or special file at this path, which a commit does not replace: commit the deletions inside the folder first (select the folder with a trailing /; it goes once they empty it), or move it aside there`;
  else if (state.base === null) reason = `a ${now} was created at this path in ${sandbox.originalPath} after the sandbox was made`;
  else if (now === null) reason = `it was deleted from ${sandbox.originalPath} after the sandbox was made`;
  else if (onlyStatusMoved(state)) reason = `its status changed in ${sandbox.originalPath} after the sandbox was made (size, time and mode as they were): its content may be the same, which Bindery cannot prove; compare, then choose`;
  else reason = `it changed in ${sandbox.originalPath} after the sandbox was made`;
  return { drift: 'conflict', driftReason: reason };
}

/** True when a copy's original differs from its base only in ctime, and no base hash can settle it by content. */
function onlyStatusMoved(state: PathState): boolean {
  const { base, original } = state;
  if (base?.kind !== 'copy' || base.entry.type !== 'file' || base.entry.sha256 !== undefined || original.type !== 'file') return false;
  const entry = base.entry;
  return original.mode === entry.mode && original.size === entry.size && sameInstant(original.mtimeMs, entry.mtimeMs) && original.ino === entry.ino;
}

