/**
 * The truthful-outcome methods of the review (issue 22): the merge dry run the commit dialog makes
 * before it offers Merge, and the revert commit offered after undoing a commit that made a git
 * commit (the undo restores the working tree only; the git commit stays until reverted).
 */
import type { ApiHandlers } from '../../../shared/contract.ts';
import type { RevertReport } from '../../../shared/dto.ts';
import { ConflictError, NotFoundError } from '../../../shared/errors.ts';
import { logActivity } from '../../registry/activity.ts';
import { previewMerge } from '../../sandbox/index.ts';
import { revertGitCommit } from '../../sandbox/index.ts';
import type { ApiContext } from './context.ts';
import { findSandbox } from './review-api.ts';

/** Merge dry run and revert commit. */
export function mergeApi(context: ApiContext): Pick<ApiHandlers, 'mergePreview' | 'revertGitCommit'> {
  const { plans, sandboxes, db } = context.bindery;
  const sandboxOf = (planRef: string, ref: string) =>
    findSandbox(plans, sandboxes.planSandboxes(plans.findPlan(planRef).id), planRef, ref);

  return {
    mergePreview: ({ plan, sandbox, path }) => previewMerge(sandboxOf(plan, sandbox), path, sandboxes.layout.tempDir),
    revertGitCommit: async ({ plan, sandbox, commit }): Promise<RevertReport> => {
      const target = sandboxOf(plan, sandbox);
      const short = commit.slice(0, 12);
      const record = plans
        .showPlan(plan)
        .commits.find((c) => c.sandboxId === target.id && c.gitCommit === commit);
      if (!record) {
        throw new NotFoundError(
          `Git commit ${short} was not made by a commit of the ${target.resourceName} sandbox, so Bindery will not revert it: revert it in git if you need to.`,
          { commit },
        );
      }
      if (!record.undoneAt) {
        throw new ConflictError(
          `The commit that made git commit ${short} is not undone: undo it first, so the working tree matches the revert.`,
          { commit },
        );
      }
      const outcome = await revertGitCommit(target.originalPath, commit, sandboxes.layout.tempDir);
      const summary =
        outcome.kind === 'reverted'
          ? `${target.resourceName}: made revert commit ${outcome.commit.slice(0, 12)} on the current branch for git commit ${short}; the working tree was not touched.`
          : `${target.resourceName}: no revert commit was made: ${outcome.reason}`;
      logActivity(db, {
        at: new Date().toISOString(),
        kind: outcome.kind === 'reverted' ? 'commit.reverted' : 'commit.revert_refused',
        planId: target.planId,
        sandboxId: target.id,
        message: summary,
      });
      return {
        sandboxId: target.id,
        reverted: outcome.kind === 'reverted',
        commit: outcome.kind === 'reverted' ? outcome.commit : null,
        summary,
      };
    },
  };
}
