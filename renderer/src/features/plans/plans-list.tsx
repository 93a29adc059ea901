/** Every plan, newest first, filtered by status, tool and project; a row opens the plan. */
import { useEffect, type ReactElement } from 'react';
import { PLAN_STATUS_VALUES, type PlanStatusValue } from '../../../../shared/dto.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { usePlans } from '../../stores/plans-store.ts';
import { usePolling } from '../../stores/plans-sync.ts';
import { useProjects } from '../../stores/projects-store.ts';
import { useTools } from '../../stores/tools-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { AgentBadges } from './agent-badges.tsx';
import { fullTime, PLAN_STATUS, shortId, timeAgo } from './plan-labels.ts';
import { goTo } from './plan-route.ts';

/** The plans list screen. */
export function PlansList(): ReactElement {
  const { items, status, error, filters, setFilters, refresh } = usePlans();
  const tools = useTools((s) => s.items);
  const projects = useProjects((s) => s.items);
  const navigate = useUi((s) => s.navigate);
  useEffect(() => void refresh(), [refresh]);
  usePolling(refresh, 5000, true);
  const newPlan = (
    <button type="button" className="btn btn-primary" onClick={() => navigate('inspector')}>
      <Icon name="plus" /> New plan
    </button>
  );
  const filtered = filters.status !== '' || filters.tool !== '' || filters.project !== '';

  return (
    <div className="page">
      <PageHeader
        title="Plans"
        subtitle="A plan is a tool activated in a project: its sandboxes, what changed in them, and what was committed or discarded."
        actions={newPlan}
      />
      <div className="toolbar" role="search" aria-label="Filter plans">
        <select
          className="select"
          aria-label="Status"
          value={filters.status}
          onChange={(event) => setFilters({ status: event.target.value as PlanStatusValue | '' })}
        >
          <option value="">Any status</option>
          {PLAN_STATUS_VALUES.map((value) => (
            <option key={value} value={value}>
              {PLAN_STATUS[value].label}
            </option>
          ))}
        </select>
        <select
          className="select"
          aria-label="Tool"
          value={filters.tool}
          onChange={(event) => setFilters({ tool: event.target.value })}
        >
          <option value="">Any tool</option>
          {tools.map((t) => (
            <option key={t.id} value={t.name}>
              {t.name}
            </option>
          ))}
        </select>
        <select
          className="select"
          aria-label="Project"
          value={filters.project}
          onChange={(event) => setFilters({ project: event.target.value })}
        >
          <option value="">Any project</option>
          {projects.map((p) => (
            <option key={p.id} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
        {filtered && (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => setFilters({ status: '', tool: '', project: '' })}
          >
            Clear filters
          </button>
        )}
        <span className="toolbar-count">
          {items.length} plan{items.length === 1 ? '' : 's'}
        </span>
      </div>
      {status === 'error' && <ErrorCallout error={error} />}
      {items.length === 0 ? (
        <div className="grid grid-fill">
          <EmptyState
            icon="plan"
            title={
              status === 'ready' || status === 'error'
                ? filtered
                  ? 'No plan matches these filters'
                  : 'No plans yet'
                : 'Loading plans…'
            }
            actions={filtered ? undefined : newPlan}
          >
            {!filtered && 'Open the binding inspector, choose a tool and a project, and provision a plan.'}
          </EmptyState>
        </div>
      ) : (
        <div className="grid grid-fill plans-table-wrap">
          <table className="simple-table plans-table" aria-label="Plans">
            <thead>
              <tr>
                <th style={{ width: 110 }}>Plan</th>
                <th>Tool</th>
                <th>Project</th>
                <th style={{ width: 160 }}>Status</th>
                <th style={{ width: 140 }}>Created</th>
                <th style={{ width: 140 }}>Updated</th>
              </tr>
            </thead>
            <tbody>
              {items.map((plan) => (
                <tr
                  key={plan.id}
                  className="clickable-row"
                  tabIndex={0}
                  onClick={() => goTo({ kind: 'plan', planId: plan.id })}
                  onKeyDown={(event) => event.key === 'Enter' && goTo({ kind: 'plan', planId: plan.id })}
                >
                  <td className="mono" title={plan.id}>
                    <a href={`#/plans/${plan.id}`} onClick={(event) => event.preventDefault()} tabIndex={-1}>
                      {shortId(plan.id)}
                    </a>
                  </td>
                  <td className="strong">
                    {plan.toolName} <AgentBadges plan={plan} />
                  </td>
                  <td>{plan.projectName}</td>
                  <td>
                    <span className={`badge ${PLAN_STATUS[plan.status].tone}`}>
                      {PLAN_STATUS[plan.status].label}
                    </span>
                  </td>
                  <td title={fullTime(plan.createdAt)}>{timeAgo(plan.createdAt)}</td>
                  <td title={fullTime(plan.updatedAt)}>{timeAgo(plan.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
