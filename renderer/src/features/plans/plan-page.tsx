/**
 * One plan: provisioning progress with cancel, the tool's run with live output, every sandbox
 * (strategy, access, path, change and conflict counts), commit all and discard all with their
 * outcomes in words, and the plan's history.
 */
import { useEffect, useState, type ReactElement } from 'react';
import type { CommitReport, DiscardReport, PlanView, SandboxChangeList } from '../../../../shared/dto.ts';
import { api } from '../../api/index.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { sumCounts } from '../../stores/change-counts.ts';
import { usePlans } from '../../stores/plans-store.ts';
import { usePolling } from '../../stores/plans-sync.ts';
import { useUi } from '../../stores/ui-store.ts';
import { DiscardDialog } from '../review/discard-dialog.tsx';
import { OutcomeCallout, type OutcomeLines } from '../review/outcome-callout.tsx';
import { CommitAllDialog } from './commit-all-dialog.tsx';
import { AgentBadges } from './agent-badges.tsx';
import { fullTime, PLAN_STATUS, shortId, timeAgo } from './plan-labels.ts';
import { goTo } from './plan-route.ts';
import { ProvisionProgress } from './provision-progress.tsx';
import { RunPanel } from './run-panel.tsx';
import { RUNNING_HOLD, stopAndWait, useRunning } from './run-state.ts';
import { SandboxCard } from './sandbox-card.tsx';
import { usePlanData, versionsOf } from './use-plan-data.ts';

/** The plan page. */
export function PlanPage({ planId }: { planId: string }): ReactElement {
  const viewError = usePlans((s) => s.viewErrors[planId]);
  const loadPlan = usePlans((s) => s.loadPlan);
  // Lists asked by version: an idle page transfers nothing (use-plan-data.ts).
  const { view, changes, changesError, reload, loadChanges } = usePlanData(planId);
  const [dialog, setDialog] = useState<'commit' | 'stopped-commit' | { discard: DiscardReport[] } | null>(null);
  const [outcome, setOutcome] = useState<OutcomeLines | null>(null);

  const provisioning = view?.plan.status === 'provisioning';
  usePolling(() => loadPlan(planId), 500, provisioning);
  useEffect(() => {
    if (view && !provisioning && view.plan.status !== 'discarded')
      void api.watchPlan({ plan: planId }).catch(() => undefined);
  }, [planId, provisioning, view?.plan.status]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!view) {
    return (
      <div className="page">
        <BackLink />
        {viewError ? <ErrorCallout error={viewError} /> : <p className="muted">Loading plan…</p>}
      </div>
    );
  }

  return (
    <div className="page plan-page">
      <BackLink />
      <PlanHeader
        view={view}
        changes={changes}
        onCommit={() => setDialog('commit')}
        onStopAndCommit={async () => {
          // The run must have ended before the host takes a commit; the lists are counted again after it.
          if (!(await stopAndWait(view.lastRun!.id))) throw new Error("The tool's command has not stopped yet: wait a moment and try again.");
          await reload();
          setDialog('stopped-commit');
        }}
        onDiscard={(pending) => setDialog({ discard: pending })}
        onOutcome={setOutcome}
      />
      <div className="plan-scroll">
        {provisioning && <ProvisionProgress planId={planId} fallback={view.provisioning} />}
        {view.plan.status === 'failed' && (
          <ErrorCallout
            error={`Provisioning failed: ${view.plan.error ?? 'no reason was recorded'}. Nothing was left behind; fix the cause and provision again from the inspector.`}
          />
        )}
        {outcome && <OutcomeCallout outcome={outcome} onDismiss={() => setOutcome(null)} />}
        <ErrorCallout error={changesError} />
        {view.toolRun && !provisioning && (
          <RunPanel
            planId={planId}
            command={view.toolRun}
            runnable={view.sandboxes.some((s) => s.status === 'ready' || s.status === 'committed')}
            lastRun={view.lastRun}
            onFinished={() => void reload()}
          />
        )}
        {view.sandboxes.length > 0 && (
          <section className="plan-section" aria-label="Sandboxes">
            <h2 className="section-title">Sandboxes ({view.sandboxes.length})</h2>
            <div className="sandbox-grid">
              {view.sandboxes.map((sandbox) => (
                <SandboxCard
                  key={sandbox.id}
                  sandbox={sandbox}
                  changes={changes.find((c) => c.sandboxId === sandbox.id) ?? null}
                />
              ))}
            </div>
          </section>
        )}
        <History view={view} />
      </div>
      {(dialog === 'commit' || dialog === 'stopped-commit') && (
        <CommitAllDialog
          stoppedRun={dialog === 'stopped-commit'}
          sandboxes={view.sandboxes.filter(
            (s) =>
              (s.status === 'ready' || s.status === 'committed') &&
              s.strategy !== 'none' &&
              s.access !== 'read_only',
          )}
          changes={changes}
          onCommit={(gitMessage) =>
            usePlans
              .getState()
              // The lists on screen: a sandbox whose list changed since is refused, and the lists reload.
              .commitAll(planId, { gitMessage, expectedVersions: versionsOf(changes) })
              .finally(() => void loadChanges())
          }
          onDone={(reports) => {
            setDialog(null);
            setOutcome(commitOutcome(reports));
            void reload();
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog !== null && typeof dialog === 'object' && (
        <DiscardDialog
          title="Discard every sandbox of this plan"
          pending={dialog.discard}
          onConfirm={(force) => usePlans.getState().discardAll(planId, { confirm: true, force })}
          onDone={(reports) => {
            setDialog(null);
            setOutcome({ tone: 'success', lines: reports.map((r) => r.summary) });
            void reload();
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

/** The outcome lines of a commit: success when something was written. */
export function commitOutcome(reports: CommitReport[]): OutcomeLines {
  return {
    tone: reports.some((r) => r.committed) ? 'success' : 'warning',
    lines: reports.map((r) => r.summary),
  };
}

function BackLink(): ReactElement {
  return (
    <a
      className="back-link"
      href="#/plans"
      onClick={(event) => (event.preventDefault(), goTo({ kind: 'list' }))}
    >
      ← All plans
    </a>
  );
}

interface HeaderProps {
  view: PlanView;
  changes: SandboxChangeList[];
  onCommit(): void;
  /** Stops the running command, then opens the commit dialog. */
  onStopAndCommit(): Promise<void>;
  onDiscard(pending: DiscardReport[]): void;
  onOutcome(outcome: OutcomeLines): void;
}

function PlanHeader({ view, changes, onCommit, onStopAndCommit, onDiscard, onOutcome }: HeaderProps): ReactElement {
  const { plan } = view;
  const toast = useUi((s) => s.toast);
  const [busy, setBusy] = useState(false);
  const [stopping, setStopping] = useState(false);
  const stopAndCommit = async () => {
    setStopping(true);
    try {
      await onStopAndCommit();
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error');
    } finally {
      setStopping(false);
    }
  };
  const running = useRunning(view);
  const live = view.sandboxes.filter((s) => s.status === 'ready' || s.status === 'committed');
  const pending = sumCounts(changes).pending;
  const discard = async () => {
    setBusy(true);
    try {
      const reports = await usePlans.getState().discardAll(plan.id, { confirm: false });
      if (reports.every((r) => r.outcome === 'discarded'))
        onOutcome({ tone: 'success', lines: reports.map((r) => r.summary) });
      else onDiscard(reports.filter((r) => r.outcome === 'needs_confirmation' || r.outcome === 'unknown'));
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error');
    } finally {
      setBusy(false);
    }
  };
  const params = Object.entries(plan.params);
  return (
    <div className="page-header">
      <div className="plan-title-block">
        <h1 className="page-title">
          {plan.toolName} <span className="muted">in</span> {plan.projectName}
          {running ? (
            <span className="badge badge-accent plan-status plan-running" role="status">
              <span className="spinner" aria-hidden="true" /> Running
            </span>
          ) : (
            <span className={`badge ${PLAN_STATUS[plan.status].tone} plan-status`}>
              {PLAN_STATUS[plan.status].label}
            </span>
          )}
          <AgentBadges plan={plan} />
        </h1>
        <p className="page-subtitle">
          Plan{' '}
          <code className="mono" title={plan.id}>
            {shortId(plan.id)}
          </code>{' '}
          · created <span title={fullTime(plan.createdAt)}>{timeAgo(plan.createdAt)}</span>
          {params.length > 0 && <> · {params.map(([slot, value]) => `${slot}=${value}`).join(', ')}</>}
        </p>
      </div>
      <div className="page-actions">
        <button
          type="button"
          className="btn"
          disabled={live.length === 0 || busy || running}
          onClick={() => void discard()}
          title={running ? RUNNING_HOLD : undefined}
        >
          <Icon name="trash" /> Discard all
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={live.length === 0 || pending === 0 || running}
          onClick={onCommit}
          title={running ? RUNNING_HOLD : pending === 0 ? 'Nothing to commit' : 'Write every change to its original'}
        >
          <Icon name="check" /> Commit all{pending > 0 ? ` (${pending})` : ''}
        </button>
        {(running || stopping) && live.length > 0 && (
          <button type="button" className="btn" disabled={stopping} onClick={() => void stopAndCommit()} title="Stop the tool's command, then commit what it wrote">
            {stopping ? 'Stopping…' : 'Stop and commit…'}
          </button>
        )}
      </div>
    </div>
  );
}

function History({ view }: { view: PlanView }): ReactElement {
  const names = new Map(view.sandboxes.map((s) => [s.id, s.resourceName]));
  return (
    <section className="plan-section plan-history" aria-label="History">
      <h2 className="section-title">History</h2>
      <ol className="timeline">
        {[...view.history].reverse().map((entry, index) => (
          <li key={`${entry.at}-${index}`}>
            <span className={`timeline-dot is-${entry.status}`} aria-hidden="true" />
            <span className="timeline-what">
              <strong>{PLAN_STATUS[entry.status].label}</strong> — {entry.detail}
            </span>
            <span className="timeline-when" title={fullTime(entry.at)}>
              {timeAgo(entry.at)}
            </span>
          </li>
        ))}
        {view.commits.map((commit) => (
          <li key={commit.id}>
            <span
              className={`timeline-dot ${commit.undoneAt ? 'is-discarded' : 'is-committed'}`}
              aria-hidden="true"
            />
            <span className="timeline-what">
              <strong>{commit.undoneAt ? 'Commit undone' : 'Committed'}</strong> —{' '}
              {names.get(commit.sandboxId) ?? commit.sandboxId}: {commit.written.length} written,{' '}
              {commit.deleted.length} deleted
              {commit.gitCommit && <code className="mono"> {commit.gitCommit.slice(0, 10)}</code>}
            </span>
            <span className="timeline-when" title={fullTime(commit.createdAt)}>
              {timeAgo(commit.createdAt)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
