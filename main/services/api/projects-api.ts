/** The project methods of the API. */
import type { ApiHandlers } from '../../../shared/contract.ts';
import type { ApiContext } from './context.ts';

type ProjectMethods = 'listProjects' | 'showProject' | 'addProject' | 'updateProject' | 'removeProject' | 'linkResource' | 'unlinkResource';

/** Projects: list (with links), show, add, update, remove, link with alias, unlink. */
export function projectsApi({ bindery: { registry } }: ApiContext): Pick<ApiHandlers, ProjectMethods> {
  return {
    listProjects: () => registry.listProjects().map((project) => registry.showProject(project.id)),
    showProject: ({ ref }) => registry.showProject(ref),
    addProject: (input) => registry.addProject(input),
    updateProject: ({ ref, ...patch }) => registry.updateProject(ref, patch),
    removeProject: ({ ref }) => registry.removeProject(ref),
    linkResource: ({ project, resource, alias }) => registry.link(project, resource, alias ?? null),
    unlinkResource: ({ project, resource }) => registry.unlink(project, resource),
  };
}
