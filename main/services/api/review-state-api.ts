/**
 * The review state methods of the API (issue 23): a sandbox's viewed marks, runs and scoped paths,
 * and marking files viewed. Checkpoints of a discarded sandbox are dropped with it from here on.
 */
import type { ApiHandlers } from '../../../shared/contract.ts';
import { RunCheckpoints } from '../review-state-checkpoints.ts';
import { ReviewStateService } from '../review-state-service.ts';
import type { ApiContext } from './context.ts';

/** reviewState and markViewed. */
export function reviewStateApi(context: ApiContext): Pick<ApiHandlers, 'reviewState' | 'markViewed'> {
  const { bindery } = context;
  const service = new ReviewStateService(bindery);
  new RunCheckpoints(bindery).dropOnDiscard(bindery.sandboxes);
  return {
    reviewState: ({ plan, sandbox, scope }) => service.state(plan, sandbox, scope),
    markViewed: ({ plan, sandbox, paths, viewed }) => service.markViewed(plan, sandbox, paths, viewed),
  };
}
