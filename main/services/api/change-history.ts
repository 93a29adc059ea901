/**
 * The last few change lists served per sandbox, keyed by version, so a client that says which
 * version it holds gets only what changed since (or "unchanged") instead of the whole list again:
 * a review of 5,000 files idles for free. Bounded; the engine is not involved.
 */
import { diffChangeLists, sameChange } from '../../../shared/change-delta.ts';
import type { SandboxChangeDelta, SandboxChangeList } from '../../../shared/dto.ts';

/** How many versions are kept per sandbox, and how many sandboxes. */
export const HISTORY_VERSIONS = 4;
export const HISTORY_SANDBOXES = 32;
/** Changed files kept over all lists (tens of MB): big reviews evict the least recently asked. */
export const HISTORY_ENTRIES = 60_000;

/** Past lists of recently asked sandboxes; the oldest go first. */
export class ChangeListHistory {
  private readonly bySandbox = new Map<string, Map<string, SandboxChangeList>>();

  constructor(
    private readonly versions = HISTORY_VERSIONS,
    private readonly sandboxes = HISTORY_SANDBOXES,
    private readonly entries = HISTORY_ENTRIES,
  ) {}

  /** Answers a client holding `since` with the current `list`, and remembers `list`. */
  answer(list: SandboxChangeList, since: string | undefined): SandboxChangeDelta {
    const held = since === undefined ? undefined : this.lists(list.sandboxId).get(since);
    const delta = held ? this.deltaOf(held, list) : null;
    this.remember(list);
    return delta ?? { kind: 'full', list };
  }

  /** Forgets a sandbox (discarded: its lists will not be asked for again). */
  forget(sandboxId: string): void {
    this.bySandbox.delete(sandboxId);
  }

  private deltaOf(held: SandboxChangeList, list: SandboxChangeList): SandboxChangeDelta | null {
    const diff = diffChangeLists(held.changes, list.changes);
    if (!diff) return null;
    if (diff.upserted.length === 0 && diff.removed.length === 0 && held.version === list.version && held.violation === list.violation) {
      return { kind: 'unchanged', sandboxId: list.sandboxId, version: list.version };
    }
    // Past about half the list, the whole list is about as small and simpler to apply.
    if (diff.upserted.length + diff.removed.length > Math.max(16, list.changes.length / 2)) return null;
    return { kind: 'delta', sandboxId: list.sandboxId, since: held.version, version: list.version, violation: list.violation, ...diff };
  }

  private lists(sandboxId: string): Map<string, SandboxChangeList> {
    const lists = this.bySandbox.get(sandboxId) ?? new Map<string, SandboxChangeList>();
    // Most recently asked last, so the first key is the one to drop.
    this.bySandbox.delete(sandboxId);
    this.bySandbox.set(sandboxId, lists);
    while (this.bySandbox.size > this.sandboxes) this.bySandbox.delete(this.bySandbox.keys().next().value as string);
    return lists;
  }

  private remember(list: SandboxChangeList): void {
    const lists = this.lists(list.sandboxId);
    const known = lists.get(list.version);
    // One version names one list; if fields outside the version differ (they follow from the
    // contents, so they should not), the newest copy is the one deltas start from.
    if (known && known.changes.length === list.changes.length && known.changes.every((c, i) => sameChange(c, list.changes[i]!))) {
      lists.delete(list.version);
      lists.set(list.version, known);
      return;
    }
    lists.delete(list.version);
    lists.set(list.version, list);
    while (lists.size > this.versions) lists.delete(lists.keys().next().value as string);
    this.trim(list.sandboxId);
  }

  /** Drops the least recently asked lists past the entry budget, the asking sandbox's newest last. */
  private trim(current: string): void {
    let total = 0;
    for (const lists of this.bySandbox.values()) for (const list of lists.values()) total += list.changes.length;
    for (const [sandboxId, lists] of this.bySandbox) {
      for (const [version, list] of lists) {
        if (total <= this.entries) return;
        if (sandboxId === current && lists.size === 1) return;
        lists.delete(version);
        total -= list.changes.length;
      }
      if (lists.size === 0) this.bySandbox.delete(sandboxId);
    }
  }
}
