/** The resource-type methods of the API. */
import type { ApiHandlers } from '../../../shared/contract.ts';
import type { ApiContext } from './context.ts';

/** Types: list, add, update, remove. */
export function typesApi({ bindery: { registry } }: ApiContext): Pick<ApiHandlers, 'listTypes' | 'addType' | 'updateType' | 'removeType'> {
  return {
    listTypes: () => registry.listTypes(),
    addType: (input) => registry.addType(input),
    updateType: ({ name, ...patch }) => registry.updateType(name, patch),
    removeType: ({ name }) => registry.removeType(name),
  };
}
