/** The binding inspector's method of the API. */
import type { ApiHandlers } from '../../../shared/contract.ts';
import type { ApiContext } from './context.ts';

/** Bindings: how each slot of a tool binds in a project, errors included. */
export function bindingsApi({ bindery: { registry, bindings } }: ApiContext): Pick<ApiHandlers, 'inspectBindings'> {
  return {
    inspectBindings: ({ tool, project, params }) => bindings.inspect(registry.showTool(tool), registry.findProject(project), params ?? {}),
  };
}
