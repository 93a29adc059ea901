/** Resource types: the list and the changes the types screen makes. */
import { create } from 'zustand';
import type { MethodInput } from '../../../shared/contract.ts';
import type { ResourceTypeSpec } from '../../../shared/model.ts';
import { api } from '../api/index.ts';
import { emptyLoadable, latestLoader, type Loadable } from './loadable.ts';

/** The types list and its actions. */
export interface TypesState extends Loadable<ResourceTypeSpec> {
  refresh(): Promise<void>;
  add(input: MethodInput<'addType'>): Promise<ResourceTypeSpec>;
  update(input: MethodInput<'updateType'>): Promise<ResourceTypeSpec>;
  remove(name: string): Promise<void>;
}

/** The one store of resource types. */
export const useTypes = create<TypesState>()((set, get) => ({
  ...emptyLoadable<ResourceTypeSpec>(),
  refresh: latestLoader(() => api.listTypes(), set),
  add: async (input) => {
    const type = await api.addType(input);
    await get().refresh();
    return type;
  },
  update: async (input) => {
    const type = await api.updateType(input);
    await get().refresh();
    return type;
  },
  remove: async (name) => {
    await api.removeType({ name });
    await get().refresh();
  },
}));
