/**
 * The one place change counts come from (issue 22): the review's header, file list and commit
 * button, the plan's header, sandbox cards and "Commit all" all count with these, so they agree.
 * A change the original already has (committed, drift "applied") leaves the list of pending ones.
 */
import type { ChangedFile, SandboxChangeList } from '../../../shared/dto.ts';

/** What a screen says about a change list. */
export interface ChangeCounts {
  /** Changes a commit would still write. */
  pending: number;
  /** Pending changes in conflict with the original. */
  conflicts: number;
  /** Changes the original already has (committed, or made there too). */
  committed: number;
}

const pendingOf = new WeakMap<SandboxChangeList, ChangedFile[]>();
const committedOf = new WeakMap<SandboxChangeList, ChangedFile[]>();
const NONE: ChangedFile[] = [];

/** The changes a commit can still write, in list order (the same array for the same list). */
export function pendingChanges(list: SandboxChangeList | null | undefined): ChangedFile[] {
  if (!list) return NONE;
  let pending = pendingOf.get(list);
  if (!pending) pendingOf.set(list, (pending = list.changes.filter((c) => c.drift !== 'applied')));
  return pending;
}

/** The changes the original already has (they left the pending list after a commit). */
export function committedChanges(list: SandboxChangeList | null | undefined): ChangedFile[] {
  if (!list) return NONE;
  let committed = committedOf.get(list);
  if (!committed) committedOf.set(list, (committed = list.changes.filter((c) => c.drift === 'applied')));
  return committed;
}

/** The counts of one sandbox's list (zeros while it is not loaded). */
export function changeCounts(list: SandboxChangeList | null | undefined): ChangeCounts {
  const pending = pendingChanges(list);
  return {
    pending: pending.length,
    conflicts: pending.filter((c) => c.drift === 'conflict').length,
    committed: committedChanges(list).length,
  };
}

/** The counts of several sandboxes' lists together (a plan). */
export function sumCounts(lists: readonly SandboxChangeList[]): ChangeCounts {
  const total: ChangeCounts = { pending: 0, conflicts: 0, committed: 0 };
  for (const list of lists) {
    const counts = changeCounts(list);
    total.pending += counts.pending;
    total.conflicts += counts.conflicts;
    total.committed += counts.committed;
  }
  return total;
}
