/** Tools: the list and import, validation, export and removal. */
import { create } from 'zustand';
import type { ToolExport, ToolValidation } from '../../../shared/dto.ts';
import type { Tool } from '../../../shared/model.ts';
import { api } from '../api/index.ts';
import { emptyLoadable, latestLoader, type Loadable } from './loadable.ts';

/** A tool file's text and the name it came under (the name of a one-tool file without `name:`). */
export interface ToolSource {
  text: string;
  fileName: string;
  replace?: boolean;
}

/** The tools list and its actions. */
export interface ToolsState extends Loadable<Tool> {
  refresh(): Promise<void>;
  validate(source: ToolSource): Promise<ToolValidation>;
  importTools(source: ToolSource): Promise<Tool[]>;
  exportTool(ref: string): Promise<ToolExport>;
  remove(ref: string): Promise<void>;
}

/** The one store of tools. */
export const useTools = create<ToolsState>()((set, get) => ({
  ...emptyLoadable<Tool>(),
  refresh: latestLoader(() => api.listTools(), set),
  validate: (source) => api.validateTools(source),
  importTools: async (source) => {
    const tools = await api.importTools(source);
    await get().refresh();
    return tools;
  },
  exportTool: (ref) => api.exportTool({ ref }),
  remove: async (ref) => {
    await api.removeTool({ ref });
    await get().refresh();
  },
}));
