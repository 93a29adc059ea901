/**
 * Review of one sandbox at a time: its change list (refreshed live, as deltas since the version
 * held), which files are selected for commit (all by default), the file shown, the diff cache, the
 * list and diff layouts, and the commit, undo and discard actions.
 */
import { create } from 'zustand';
import { applyChangeDelta } from '../../../shared/change-delta.ts';
import type {
  ChangedFile,
  CommitReport,
  DiscardReport,
  FileDiffView,
  ResolutionValue,
  SandboxChangeList,
  UndoReport,
} from '../../../shared/dto.ts';
import { api } from '../api/index.ts';

/** How the file list is drawn. */
export type ListMode = 'tree' | 'flat';

/** The diff of one file, loading or loaded. */
export interface DiffEntry {
  /** The change it was loaded for; a different one means the file changed since. */
  signature: string;
  view: FileDiffView | null;
  error: unknown;
  loading: boolean;
}

/** Review state and actions. */
export interface ReviewState {
  planId: string | null;
  sandboxId: string | null;
  changes: SandboxChangeList | null;
  changesError: unknown;
  loading: boolean;
  /** Paths left out of the next commit (everything else is selected). */
  excluded: Record<string, true>;
  filter: string;
  listMode: ListMode;
  diffMode: 'unified' | 'split';
  diffs: Record<string, DiffEntry>;
  open(planId: string, sandboxId: string): void;
  /**
   * Brings the change list up to date: asks for what changed since the version held (a list of
   * 5,000 files costs nothing when nothing changed). A call during a load runs once after it.
   */
  loadChanges(): Promise<void>;
  /** A pushed version of the open sandbox's list: loads only when it is not the one held. */
  onVersion(sandboxId: string, version: string | undefined): void;
  loadDiff(path: string, options?: { against?: 'base' | 'original'; full?: boolean }): Promise<void>;
  toggle(path: string): void;
  setSelected(paths: string[], selected: boolean): void;
  setFilter(filter: string): void;
  setListMode(mode: ListMode): void;
  setDiffMode(mode: 'unified' | 'split'): void;
  /**
   * Commits the chosen paths (all without `paths`) of the list on screen: its version goes along,
   * so a list that changed since is refused (and reloaded) instead of committed unseen.
   */
  commit(
    paths: string[] | undefined,
    resolutions: Record<string, ResolutionValue>,
    gitMessage?: string,
    /** Files committed in part: their chosen hunks and lines. */
    selections?: Parameters<typeof api.commitSandbox>[0]['selections'],
  ): Promise<CommitReport[]>;
  undo(): Promise<UndoReport>;
  discard(confirm: boolean, force?: boolean): Promise<DiscardReport[]>;
}

/** The key of a cached diff. */
export function diffKey(path: string, against: 'base' | 'original' = 'base', full = false): string {
  return `${against}${full ? '+full' : ''}\u0000${path}`;
}

/** What identifies a change's content for the diff cache (kind, sizes, counts, drift). */
export function changeSignature(change: ChangedFile): string {
  return [
    change.kind,
    change.oldPath,
    change.size,
    change.additions,
    change.deletions,
    change.drift,
    change.newMode,
  ].join('|');
}

/** The one review store. */
export const useReview = create<ReviewState>()((set, get) => {
  let generation = 0;
  let inflight: { generation: number; done: Promise<void> } | null = null;
  let again = false;
  /** One round: the delta since the list held, applied; the whole list when it cannot be. */
  const fetchChanges = async (plan: string, sandbox: string, mine: number) => {
    const since = get().changes?.version;
    const delta = await api.changesSince({ plan, sandbox, since });
    if (mine !== generation) return;
    let list = applyChangeDelta(get().changes, delta);
    if (list === null && delta.kind !== 'full') {
      // The list held is not the one the delta starts from: start again from the whole list.
      const full = await api.changesSince({ plan, sandbox });
      if (mine !== generation) return;
      list = applyChangeDelta(null, full);
    }
    // "Unchanged" keeps the same object, so nothing on screen renders again.
    set(list === get().changes ? { changesError: null } : { changes: list, changesError: null });
  };
  const signatureOf = (path: string) => {
    const change = get().changes?.changes.find((c) => c.path === path || c.oldPath === path);
    return change ? changeSignature(change) : 'gone';
  };
  const target = () => {
    const { planId, sandboxId } = get();
    if (!planId || !sandboxId) throw new Error('No sandbox is open for review: open one from its plan page.');
    return { plan: planId, sandbox: sandboxId };
  };
  return {
    planId: null,
    sandboxId: null,
    changes: null,
    changesError: null,
    loading: false,
    excluded: {},
    filter: '',
    listMode: 'tree',
    diffMode: 'split',
    diffs: {},
    open: (planId, sandboxId) => {
      if (get().planId === planId && get().sandboxId === sandboxId) return;
      generation++;
      set({ planId, sandboxId, changes: null, changesError: null, excluded: {}, diffs: {}, filter: '' });
    },
    loadChanges: () => {
      const { plan, sandbox } = target();
      if (inflight && inflight.generation === generation) {
        again = true;
        return inflight.done;
      }
      const mine = generation;
      set({ loading: true });
      const round = { generation: mine, done: Promise.resolve() };
      round.done = (async () => {
        try {
          do {
            again = false;
            await fetchChanges(plan, sandbox, mine);
          } while (again && mine === generation);
        } catch (error) {
          if (mine === generation) set({ changesError: error });
        } finally {
          if (inflight === round) inflight = null;
          if (mine === generation) set({ loading: false });
        }
      })();
      inflight = round;
      return round.done;
    },
    onVersion: (sandboxId, version) => {
      const { sandboxId: open, changes } = get();
      if (open !== sandboxId && changes?.sandboxId !== sandboxId) return;
      if (version !== undefined && changes?.version === version) return;
      void get().loadChanges();
    },
    loadDiff: async (path, options = {}) => {
      const { plan, sandbox } = target();
      const key = diffKey(path, options.against, options.full);
      const signature = signatureOf(path);
      const cached = get().diffs[key];
      if (cached && cached.signature === signature && (cached.loading || cached.view)) return;
      const sandboxAtStart = sandbox;
      set({
        diffs: {
          ...get().diffs,
          [key]: { signature, view: cached?.view ?? null, error: null, loading: true },
        },
      });
      try {
        const view = await api.fileDiff({
          plan,
          sandbox,
          path,
          against: options.against,
          full: options.full,
        });
        if (get().sandboxId !== sandboxAtStart) return;
        set({ diffs: { ...get().diffs, [key]: { signature, view, error: null, loading: false } } });
      } catch (error) {
        if (get().sandboxId !== sandboxAtStart) return;
        set({ diffs: { ...get().diffs, [key]: { signature, view: null, error, loading: false } } });
      }
    },
    toggle: (path) => {
      const excluded = { ...get().excluded };
      if (excluded[path]) delete excluded[path];
      else excluded[path] = true;
      set({ excluded });
    },
    setSelected: (paths, selected) => {
      const excluded = { ...get().excluded };
      for (const path of paths) {
        if (selected) delete excluded[path];
        else excluded[path] = true;
      }
      set({ excluded });
    },
    setFilter: (filter) => set({ filter }),
    setListMode: (listMode) => set({ listMode }),
    setDiffMode: (diffMode) => set({ diffMode }),
    commit: async (paths, resolutions, gitMessage, selections) => {
      const { plan, sandbox } = target();
      const expectedVersion = get().changes?.version;
      try {
        const reports = await api.commitSandbox({
          plan,
          sandbox,
          paths,
          resolutions,
          gitMessage,
          expectedVersion,
          selections,
        });
        set({ excluded: {} });
        return reports;
      } finally {
        await get().loadChanges();
      }
    },
    undo: async () => {
      const { plan, sandbox } = target();
      try {
        return await api.undoCommit({ plan, sandbox });
      } finally {
        await get().loadChanges();
      }
    },
    discard: (confirm, force) => {
      const { plan, sandbox } = target();
      return api.discardSandbox({ plan, sandbox, confirm, force });
    },
  };
});
