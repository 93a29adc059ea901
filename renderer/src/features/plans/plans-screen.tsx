/** The plans area: the list, one plan's page, or the review of one of its sandboxes, by the hash. */
import type { ReactElement } from 'react';
import { usePlansSync } from '../../stores/plans-sync.ts';
import { ReviewScreen } from '../review/review-screen.tsx';
import { PlanPage } from './plan-page.tsx';
import { plansLocation } from './plan-route.ts';
import { PlansList } from './plans-list.tsx';
import { useHash } from './use-hash.ts';
import './plans.css';
import './work-widgets.css';

/** Chooses the plan screen the hash names. */
export function PlansScreen(): ReactElement {
  usePlansSync();
  const location = plansLocation(useHash());
  switch (location.kind) {
    case 'list':
      return <PlansList />;
    case 'plan':
      return <PlanPage key={location.planId} planId={location.planId} />;
    case 'review':
      return (
        <ReviewScreen
          key={`${location.planId}/${location.sandboxId}`}
          planId={location.planId}
          sandboxId={location.sandboxId}
          path={location.path}
        />
      );
  }
}
