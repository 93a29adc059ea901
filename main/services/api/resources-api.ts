/** The resource methods of the API, including the register dialog's folder check and live statuses. */
import type { ApiHandlers } from '../../../shared/contract.ts';
import type { ResourceListItem } from '../../../shared/dto.ts';
import type { Resource } from '../../../shared/model.ts';
import { inspectFolder } from '../folder-inspection.ts';
import type { RegistryService } from '../registry-service.ts';
import { resourceStatuses } from '../resource-status.ts';
import type { ApiContext } from './context.ts';

type ResourceMethods = 'listResources' | 'showResource' | 'addResource' | 'updateResource' | 'removeResource' | 'inspectFolder' | 'resourceStatuses';

/** Resources: list (with linking projects), show, add, update, remove, inspectFolder, statuses. */
export function resourcesApi({ bindery: { registry } }: ApiContext): Pick<ApiHandlers, ResourceMethods> {
  const withProjects = (resource: Resource): ResourceListItem => ({
    ...resource,
    projects: registry.projectsByResource().get(resource.id) ?? [],
  });
  return {
    listResources: () => {
      const byResource = registry.projectsByResource();
      return registry.listResources().map((resource) => ({ ...resource, projects: byResource.get(resource.id) ?? [] }));
    },
    showResource: ({ ref }) => withProjects(registry.showResource(ref)),
    addResource: async (input) => {
      const { resource, warning } = await registry.register(input);
      return { ...withProjects(resource), warning };
    },
    updateResource: async ({ ref, ...patch }) => withProjects(await registry.updateResource(ref, patch)),
    removeResource: ({ ref, force }) => registry.removeResource(ref, { force }),
    inspectFolder: ({ path }) => inspectFolder(path, new Set(registry.listResources().map((r) => r.name))),
    resourceStatuses: ({ ids }) => resourceStatuses(selectResources(registry, ids)),
  };
}

function selectResources(registry: RegistryService, ids: string[] | undefined): Resource[] {
  const all = registry.listResources();
  if (!ids) return all;
  const wanted = new Set(ids);
  return all.filter((resource) => wanted.has(resource.id) || wanted.has(resource.name));
}
