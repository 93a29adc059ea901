/**
 * Paths a change list cannot read (a file made unreadable, an I/O error): listed by path with
 * why, so the rest of the list, the diffs of other paths and commits without them go on. Such a
 * change is in conflict (nothing can vouch for either side), cannot be diffed, and a commit that
 * includes it is refused unless the original's version is kept.
 */
import { BinderyError, ConflictError } from '../../shared/errors.ts';
import type { PathState } from './changes.ts';
import type { UnreadableEntry } from './content.ts';
import { displayPath } from './fs-path.ts';
import type { FileChange } from './model.ts';

/** The side of a path that could not be read, and what is known of it. */
export interface UnreadableSide {
  side: 'sandbox' | 'original';
  entry: UnreadableEntry;
}

/**
 * The change at a path with an unreadable side. `readable` is the change as described from the
 * sides that could be read (the sandbox's, when only the original failed); null when the sandbox
 * holds no change there, or could not be read itself (then its stat describes the change).
 */
export function unreadableChange(state: PathState, unreadable: UnreadableSide, readable: FileChange | null): FileChange | null {
  const { side, entry } = unreadable;
  const why = `${side === 'sandbox' ? "the sandbox's" : "the original's"} ${entry.stat?.type ?? 'file'} cannot be read: ${entry.unreadable}`;
  const flag = { drift: 'conflict' as const, driftReason: `${why}; make it readable, then look again`, unreadable: why };
  if (side === 'original') return readable ? { ...readable, ...flag } : null;
  const { base } = state;
  const now = entry.stat;
  const kind: FileChange['kind'] = base === null ? 'added' : now !== null && now.type !== base.entry.type ? 'type_changed' : 'modified';
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

/** Refuses to show the diff of an unreadable change, saying why and what to do. */
export function assertReadable(change: FileChange): void {
  if (!change.unreadable) return;
  throw new BinderyError('io_error', `${displayPath(change.path)}: ${change.unreadable}, so its diff cannot be shown. Make it readable (for example chmod u+r), then look again.`, {
    path: change.path,
  });
}

/** The error of a commit that includes unreadable changes: each by path, and what to do. */
export function unreadableError(changes: readonly FileChange[], resourceName: string): ConflictError {
  const lines = changes.slice(0, 20).map((c) => `  - ${displayPath(c.path)}: ${c.unreadable}`);
  const more = changes.length > 20 ? `\n  ... and ${changes.length - 20} more` : '';
  return new ConflictError(
    `Commit of ${resourceName} refused: ${changes.length} path(s) cannot be read, so nothing was written.\n${lines.join('\n')}${more}\n` +
      'Make them readable (for example chmod u+r) and commit again, commit the other paths without them, or keep the original for them (--resolve <path>=ours).',
    { paths: changes.map((c) => ({ path: c.path, reason: c.unreadable })) },
  );
}
