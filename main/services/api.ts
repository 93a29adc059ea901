/**
 * The one object implementing the whole API contract (shared/contract.ts) by delegating to the
 * services. One file per area under ./api/; a new area (plans, sandboxes) adds a file and a line.
 */
import type { ApiHandlers } from '../../shared/contract.ts';
import { bindingsApi } from './api/bindings-api.ts';
import type { ApiContext } from './api/context.ts';
import { plansApi } from './api/plans-api.ts';
import { notesApi } from './api/notes-api.ts';
import { projectsApi } from './api/projects-api.ts';
import { resourcesApi } from './api/resources-api.ts';
import { reviewStateApi } from './api/review-state-api.ts';
import { systemApi } from './api/system-api.ts';
import { toolsApi } from './api/tools-api.ts';
import { typesApi } from './api/types-api.ts';

/** Builds the API object; the type check fails here when a contract method has no implementation. */
export function createApi(context: ApiContext): ApiHandlers {
  return {
    ...typesApi(context),
    ...resourcesApi(context),
    ...projectsApi(context),
    ...toolsApi(context),
    ...bindingsApi(context),
    ...plansApi(context),
    ...systemApi(context),
    ...reviewStateApi(context),
    ...notesApi(context),
  } satisfies ApiHandlers;
}

export type { ApiContext } from './api/context.ts';
