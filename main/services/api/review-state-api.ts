/**
 * The review state methods of the API (issue 23): a sandbox's viewed marks, runs and scoped paths,
 * and marking files viewed. (A discard takes a sandbox's checkpoints with it, in the engine.)
 */
import type { ApiHandlers } from '../../../shared/contract.ts';
import { ReviewStateService } from '../review-state-service.ts';
import type { ApiContext } from './context.ts';

/** reviewState and markViewed. */
export function reviewStateApi(context: ApiContext): Pick<ApiHandlers, 'reviewState' | 'markViewed'> {
  const { bindery } = context;
  const service = new ReviewStateService(bindery);
  return {
    reviewState: ({ plan, sandbox, scope }) => service.state(plan, sandbox, scope),
    markViewed: ({ plan, sandbox, paths, viewed }) => service.markViewed(plan, sandbox, paths, viewed),
  };
}
