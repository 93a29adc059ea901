/** Projects with their links: the list and project, link and alias changes. */
import { create } from 'zustand';
import type { Project, ProjectDetail } from '../../../shared/model.ts';
import { api } from '../api/index.ts';
import { emptyLoadable, latestLoader, type Loadable } from './loadable.ts';
import { useResources } from './resources-store.ts';

/** The projects list and its actions. */
export interface ProjectsState extends Loadable<ProjectDetail> {
  refresh(): Promise<void>;
  add(input: { name: string; description?: string }): Promise<Project>;
  update(input: { ref: string; name?: string; description?: string }): Promise<Project>;
  remove(ref: string): Promise<void>;
  /** Links a resource, or sets the alias of an existing link (null clears it). */
  link(project: string, resource: string, alias: string | null): Promise<ProjectDetail>;
  unlink(project: string, resource: string): Promise<ProjectDetail>;
}

/** The one store of projects. */
export const useProjects = create<ProjectsState>()((set, get) => {
  // Links show in the resources table too, so a link change refreshes both.
  const afterLinks = async () => {
    await Promise.all([get().refresh(), useResources.getState().refresh()]);
  };
  return {
    ...emptyLoadable<ProjectDetail>(),
    refresh: latestLoader(() => api.listProjects(), set),
    add: async (input) => {
      const project = await api.addProject(input);
      await get().refresh();
      return project;
    },
    update: async (input) => {
      const project = await api.updateProject(input);
      await afterLinks();
      return project;
    },
    remove: async (ref) => {
      await api.removeProject({ ref });
      await afterLinks();
    },
    link: async (project, resource, alias) => {
      const detail = await api.linkResource({ project, resource, alias });
      await afterLinks();
      return detail;
    },
    unlink: async (project, resource) => {
      const detail = await api.unlinkResource({ project, resource });
      await afterLinks();
      return detail;
    },
  };
});
