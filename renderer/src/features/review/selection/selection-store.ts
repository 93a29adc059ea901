/**
 * The hunks and lines chosen for the next commit, per file of a sandbox's review (keyed by plan,
 * sandbox and path). Only files partly chosen have an entry: a file taken whole or left out is the
 * review store's plain checkbox. An entry holds for one version of the file's change and reads as
 * absent (and is dropped) once the change is another.
 */
import { create } from 'zustand';
import type { ChangeKey, FilePatch } from '../../../../../shared/patch-selection.ts';
import { summarize, toSelection, type FileSelection, type SelectionSummary } from './selection-model.ts';

/** A partly chosen file: the chosen lines, and the contract's selection and counts made from them. */
export interface PartialEntry {
  version: string;
  chosen: ChangeKey[];
  selection: FileSelection;
  summary: SelectionSummary;
}

/** The store's state and actions. */
export interface SelectionState {
  entries: Record<string, PartialEntry>;
  /**
   * Records the chosen lines of a file's `patch` at `version`; returns what that makes of the file:
   * 'all' and 'none' leave no entry (the file is taken whole, or left out), 'some' keeps one.
   */
  choose(key: string, version: string, patch: FilePatch, chosen: ReadonlySet<ChangeKey>, texts?: string): 'all' | 'none' | 'some';
  /** Forgets a file's partial choice (it is taken whole again). */
  clear(key: string): void;
  /** Drops the entries of a sandbox whose file changed since (versions by path). */
  prune(plan: string, sandbox: string, versions: ReadonlyMap<string, string>): void;
}

/** The key of a file of a sandbox's review. */
export function selectionKey(plan: string, sandbox: string, path: string): string {
  return `${plan}\u0000${sandbox}\u0000${path}`;
}

/** The entry of `key` if it was made for this `version` of the change, else undefined. */
export function entryAt(state: Pick<SelectionState, 'entries'>, key: string, version: string | null): PartialEntry | undefined {
  const entry = state.entries[key];
  return entry && entry.version === version ? entry : undefined;
}

/** The one selection store. */
export const usePartialSelection = create<SelectionState>()((set, get) => ({
  entries: {},
  choose: (key, version, patch, chosen, texts) => {
    const picked = toSelection(patch, chosen);
    const selection = picked === 'all' || picked === 'none' || texts === undefined ? picked : { ...picked, texts };
    const entries = { ...get().entries };
    if (selection === 'all' || selection === 'none') {
      delete entries[key];
      set({ entries });
      return selection;
    }
    entries[key] = { version, chosen: [...chosen], selection, summary: summarize(patch, chosen) };
    set({ entries });
    return 'some';
  },
  clear: (key) => {
    if (!(key in get().entries)) return;
    const entries = { ...get().entries };
    delete entries[key];
    set({ entries });
  },
  prune: (plan, sandbox, versions) => {
    const prefix = selectionKey(plan, sandbox, '');
    let entries: Record<string, PartialEntry> | null = null;
    for (const [key, entry] of Object.entries(get().entries)) {
      if (!key.startsWith(prefix) || versions.get(key.slice(prefix.length)) === entry.version) continue;
      entries ??= { ...get().entries };
      delete entries[key];
    }
    if (entries) set({ entries });
  },
}));

/**
 * A check of a file's box (a click, or Space on its row) while the file is in the commit: a partly
 * chosen file is taken whole again (true), as GitHub Desktop does; false when it was not partly chosen.
 */
export function takeWholeIfPartly(key: string, version: string): boolean {
  if (!entryAt(usePartialSelection.getState(), key, version)) return false;
  usePartialSelection.getState().clear(key);
  return true;
}
