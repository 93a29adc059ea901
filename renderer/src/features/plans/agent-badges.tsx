/** Marks on a plan an agent made through `bindery mcp`, and when it said the work was ready for review. */
import type { ReactElement } from 'react';
import type { PlanInfo } from '../../../../shared/dto.ts';
import { fullTime, timeAgo } from './plan-labels.ts';

/** Nothing for a person's plan; for an agent's, a badge, plus one when it asked for review. */
export function AgentBadges({ plan }: { plan: Pick<PlanInfo, 'createdBy' | 'reviewRequestedAt'> }): ReactElement | null {
  if (plan.createdBy !== 'agent') return null;
  return (
    <>
      <span className="badge badge-accent plan-agent-badge" title="An agent made this plan; you review and commit it.">
        made by an agent
      </span>
      {plan.reviewRequestedAt && (
        <span className="badge badge-success plan-agent-badge" title={`The agent said the work was ready for review ${fullTime(plan.reviewRequestedAt)}.`}>
          asked for review · {timeAgo(plan.reviewRequestedAt)}
        </span>
      )}
    </>
  );
}
