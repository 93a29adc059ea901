/**
 * Paths a change list cannot read (a file made unreadable, an I/O error) or must not read (a
 * special file a tool made in the sandbox: a FIFO, a socket, a device): listed by path with why,
 * so the rest of the list, the diffs of other paths and commits without them go on. Such a change
 * is in conflict (nothing can vouch for either side), cannot be diffed, and a commit that includes
 * it is refused unless the original's version is kept. A special file is never taken for the
 * deletion of what the base had at its path: committing that would delete the person's file.
 */
import { BinderyError, ConflictError } from '../../../shared/errors.ts';
import type { PathState } from './detect.ts';
import type { DiskEntry, UnreadableEntry } from './content.ts';
import { displayPath } from '../fs/index.ts';
import type { ChangedFile } from '../../../shared/dto.ts';
import type { SpecialKind } from '../fs/index.ts';

/** The side of a path that could not be read, and what is known of it. */
export interface UnreadableSide {
  side: 'sandbox' | 'original';
  entry: UnreadableEntry;
  /** Set for a special file in the sandbox, which is never read, copied or committed. */
  special?: SpecialKind;
}

/** The sandbox side of a path that holds a special file (null for anything else). */
export function specialSide(inSandbox: DiskEntry): UnreadableSide | null {
  if (inSandbox.type !== 'other' || !inSandbox.special) return null;
  const why = `the sandbox's ${inSandbox.special} is a special file, which Bindery does not copy or commit`;
  return { side: 'sandbox', entry: { unreadable: why, stat: null }, special: inSandbox.special };
}

/**
 * The change at a path with an unreadable side. `readable` is the change as described from the
 * sides that could be read (the sandbox's, when only the original failed); null when the sandbox
 * holds no change there, or could not be read itself (then its stat describes the change).
 */
export function unreadableChange(state: PathState, unreadable: UnreadableSide, readable: ChangedFile | null): ChangedFile | null {
  const { side, entry, special } = unreadable;
  if (special) return specialChange(state, entry.unreadable, special);
  const why = `${side === 'sandbox' ? "the sandbox's" : "the original's"} ${entry.stat?.type ?? 'file'} cannot be read: ${entry.unreadable}`;
  const flag = { drift: 'conflict' as const, driftReason: `${why}; make it readable, then look again`, unreadable: why };
  if (side === 'original') return readable ? { ...readable, ...flag } : null;
  const { base } = state;
  const now = entry.stat;
  const kind: ChangedFile['kind'] = base === null ? 'added' : now !== null && now.type !== base.entry.type ? 'type_changed' : 'modified';
  return {
    path: state.rel,
    oldPath: null,
    kind,
    oldType: base?.entry.type ?? null,
    newType: now?.type ?? base?.entry.type ?? 'file',
    oldMode: base ? base.entry.mode : null,
    newMode: now?.mode ?? null,
    size: now?.size ?? null,
    binary: false,
    additions: null,
    deletions: null,
    ...flag,
  };
}

/** A special file in the sandbox: added where the base had nothing, else a change of type (never a deletion). */
function specialChange(state: PathState, why: string, special: SpecialKind): ChangedFile {
  const { base } = state;
  return {
    path: state.rel,
    oldPath: null,
    kind: base === null ? 'added' : 'type_changed',
    oldType: base?.entry.type ?? null,
    newType: null,
    oldMode: base ? base.entry.mode : null,
    newMode: null,
    size: null,
    binary: false,
    additions: null,
    deletions: null,
    drift: 'conflict',
    driftReason: `${why}: remove it from the sandbox, or keep the original here (ours)`,
    unreadable: why,
    special,
  };
}

/** Refuses to show the diff of an unreadable change, saying why and what to do. */
export function assertReadable(change: ChangedFile): void {
  if (!change.unreadable) return;
  if (change.special) {
    throw new BinderyError('io_error', `${displayPath(change.path)}: ${change.unreadable}, so it has no diff. Remove it from the sandbox, or choose Keep original for it when committing.`, {
      path: change.path,
      hints: [{ action: 'resolve', paths: [change.path], choices: ['ours'] }],
    });
  }
  throw new BinderyError('io_error', `${displayPath(change.path)}: ${change.unreadable}, so its diff cannot be shown. Make it readable (for example chmod u+r), then look again.`, {
    path: change.path,
  });
}

/** The error of a commit that includes unreadable changes or special files: each by path, and what to do. */
export function unreadableError(changes: readonly ChangedFile[], resourceName: string): ConflictError {
  const lines = changes.slice(0, 20).map((c) => `  - ${displayPath(c.path)}: ${c.unreadable}`);
  const more = changes.length > 20 ? `\n  ... and ${changes.length - 20} more` : '';
  const specials = changes.filter((c) => c.special).length;
  const what = specials === 0 ? 'cannot be read' : specials === changes.length ? 'are special files (a FIFO, socket or device), which Bindery does not copy or commit' : 'cannot be read or are special files';
  const fix = specials === 0 ? 'Make them readable (for example chmod u+r)' : specials === changes.length ? 'Remove them from the sandbox' : 'Make them readable (for example chmod u+r) or remove the special files from the sandbox';
  return new ConflictError(
    `Commit of ${resourceName} refused: ${changes.length} path(s) ${what}, so nothing was written.\n${lines.join('\n')}${more}\n` +
      `${fix} and commit again, commit the other paths without them, or choose Keep original for them.`,
    { paths: changes.map((c) => ({ path: c.path, reason: c.unreadable })), hints: [{ action: 'resolve', paths: changes.map((c) => c.path), choices: ['ours'] }] },
  );
}
