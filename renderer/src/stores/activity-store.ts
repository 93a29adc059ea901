/** The activity log and the trash: what was done to plans, and discarded changes to restore. */
import { create } from 'zustand';
import type { ActivityItem, SandboxInfo, TrashItem } from '../../../shared/dto.ts';
import { api } from '../api/index.ts';
import { emptyLoadable, latestLoader, type Loadable } from './loadable.ts';

/** The log and the trash, and their actions. */
export interface ActivityState extends Loadable<ActivityItem> {
  trash: Loadable<TrashItem>;
  refresh(): Promise<void>;
  refreshTrash(): Promise<void>;
  restore(id: string): Promise<SandboxInfo>;
  purge(all: boolean): Promise<TrashItem[]>;
}

/** The one activity store. */
export const useActivity = create<ActivityState>()((set, get) => ({
  ...emptyLoadable<ActivityItem>(),
  trash: emptyLoadable<TrashItem>(),
  refresh: latestLoader(() => api.activity({ limit: 500 }), set),
  refreshTrash: latestLoader(
    () => api.listTrash(),
    (patch) => set({ trash: { ...get().trash, ...patch } }),
  ),
  restore: async (id) => {
    const sandbox = await api.restoreTrash({ id });
    await Promise.all([get().refresh(), get().refreshTrash()]);
    return sandbox;
  },
  purge: async (all) => {
    const purged = await api.purgeTrash({ all });
    await Promise.all([get().refresh(), get().refreshTrash()]);
    return purged;
  },
}));
