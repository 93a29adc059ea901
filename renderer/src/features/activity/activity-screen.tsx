/**
 * Activity: the log of plans, commits, undos, discards and restores (this session and before), and
 * the trash of discarded sandbox changes with restore and purge.
 */
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import type { ActivityItem } from '../../../../shared/dto.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useActivity } from '../../stores/activity-store.ts';
import { usePolling } from '../../stores/plans-sync.ts';
import { clockTime, fullTime, kindLabel, shortId } from '../plans/plan-labels.ts';
import { goTo } from '../plans/plan-route.ts';
import { useHash } from '../plans/use-hash.ts';
import { TrashView } from './trash-view.tsx';
import './activity.css';

/** When this window opened: entries after it are "this session". */
const SESSION_START = new Date().toISOString();

/** The activity screen with its Log and Trash tabs (`#/activity` and `#/activity/trash`). */
export function ActivityScreen(): ReactElement {
  const tab = useHash().startsWith('#/activity/trash') ? 'trash' : 'log';
  const setTab = (next: 'log' | 'trash') => {
    window.location.hash = next === 'trash' ? '#/activity/trash' : '#/activity';
  };
  return (
    <div className="page">
      <PageHeader
        title="Activity"
        subtitle="What happened to plans: created, run, committed, undone, discarded and restored, with times."
      />
      <div className="tabs" role="tablist" aria-label="Activity views">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'log'}
          className="tab"
          onClick={() => setTab('log')}
        >
          Log
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'trash'}
          className="tab"
          onClick={() => setTab('trash')}
        >
          Trash
        </button>
      </div>
      {tab === 'log' ? <ActivityLog /> : <TrashView />}
    </div>
  );
}

function ActivityLog(): ReactElement {
  const { items, status, error, refresh } = useActivity();
  const [filter, setFilter] = useState('');
  useEffect(() => void refresh(), [refresh]);
  usePolling(refresh, 5000, true);
  const shown = useMemo(() => {
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    return items.filter((item) =>
      words.every((w) => `${item.kind} ${item.message} ${item.planId ?? ''}`.toLowerCase().includes(w)),
    );
  }, [items, filter]);
  const session = shown.filter((i) => i.at >= SESSION_START);
  const before = shown.filter((i) => i.at < SESSION_START);
  if (items.length === 0) {
    return (
      <div className="grid grid-fill">
        <EmptyState
          icon="activity"
          title={status === 'ready' ? 'Nothing has happened yet' : 'Loading activity…'}
        >
          {status === 'ready' && 'Provision a plan from the binding inspector; its steps are logged here.'}
        </EmptyState>
      </div>
    );
  }
  return (
    <>
      <div className="toolbar">
        <input
          className="input"
          type="search"
          placeholder="Filter the log"
          aria-label="Filter the log"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
        <span className="toolbar-count">
          {shown.length} entr{shown.length === 1 ? 'y' : 'ies'}
        </span>
      </div>
      <ErrorCallout error={status === 'error' ? error : null} />
      <div className="activity-log grid grid-fill">
        {session.length > 0 && <LogGroup title="This session" items={session} />}
        {before.length > 0 && <LogGroup title="Earlier" items={before} />}
      </div>
    </>
  );
}

function LogGroup({ title, items }: { title: string; items: ActivityItem[] }): ReactElement {
  return (
    <section aria-label={title}>
      <h2 className="activity-group">{title}</h2>
      <ol className="activity-list">
        {items.map((item) => {
          const kind = kindLabel(item.kind);
          return (
            <li key={item.id} className="activity-item">
              <time dateTime={item.at} title={fullTime(item.at)}>
                {clockTime(item.at)}
              </time>
              <span className={`badge ${kind.tone}`}>{kind.label}</span>
              <span className="activity-message">{item.message}</span>
              {item.planId && (
                <a
                  className="mono activity-plan"
                  href={`#/plans/${item.planId}`}
                  onClick={(event) => {
                    event.preventDefault();
                    goTo({ kind: 'plan', planId: item.planId as string });
                  }}
                >
                  {shortId(item.planId)}
                </a>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
