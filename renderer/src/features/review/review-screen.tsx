/**
 * Reviewing one sandbox: its changed files (in a resizable panel) beside the selected file's
 * diff, updating live while a tool works in it; commit the selected files (conflicts settled
 * first), undo the last commit, or discard. Keys (listed by "?"): j/k between files, n/p between
 * changes, Ctrl/Cmd+Enter to commit, "/" to filter.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import type { CommitInfo, CommitReport } from '../../../../shared/dto.ts';
import { api } from '../../api/index.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { ResizeHandle, usePersistedWidth } from '../../components/resize-handle.tsx';
import { commandKey, ShortcutsDialog } from '../../components/shortcuts-dialog.tsx';
import { formatCount, formatNumber } from '../../lib/counts.ts';
import { besideConnectionBar, errorMessage } from '../../lib/errors.ts';
import { useConnection } from '../../stores/connection-store.ts';
import { ACCESS_LABELS, STRATEGY_LABELS } from '../../lib/labels.ts';
import { changeCounts, pendingChanges } from '../../stores/change-counts.ts';
import { usePlans } from '../../stores/plans-store.ts';
import { useAdaptivePolling, usePolling } from '../../stores/plans-sync.ts';
import { useReview } from '../../stores/review-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { hasGitOriginal } from '../plans/commit-all-dialog.tsx';
import { goTo, replaceWith } from '../plans/plan-route.ts';
import { CommitDialog } from './commit-dialog.tsx';
import { DiffPanel } from './diff-panel.tsx';
import type { ChangeStep } from './diff/index.ts';
import { DiscardDialog } from './discard-dialog.tsx';
import { stepFile } from './file-rows.ts';
import { FilePanel } from './file-panel.tsx';
import { OutcomeCallout, type OutcomeLines } from './outcome-callout.tsx';
import { UndoDialog } from './undo-dialog.tsx';
import { RUNNING_HOLD, useRunning } from '../plans/run-state.ts';
import { reviewKey, reviewShortcuts } from './review-keys.ts';
import { ReviewStateBar } from './review-state/review-state-bar.tsx';
import { scopedChanges, scopeKey } from './review-state/review-state-logic.ts';
import { useReviewState } from './review-state/review-state-store.ts';
import { RunDiffPanel } from './review-state/run-diff-panel.tsx';
import { toggleViewed, useReviewStateSync } from './review-state/use-review-state.ts';
import { ReviewNotesPanel, ReviewNotesScope, ReviewNotesToggle, useReviewNotes } from './notes/review-notes.tsx';
import './review.css';

const PANEL_BOUNDS = { min: 200, max: 640, initial: 296 };

/** Props: which sandbox, and the file named in the URL. */
export interface ReviewScreenProps {
  planId: string;
  sandboxId: string;
  path: string | null;
}

// The undo dialog keeps the commit it was opened on: once undone, it is no longer the last one.
type Dialog = 'commit' | { undo: CommitInfo } | { discard: Awaited<ReturnType<typeof api.discardSandbox>> } | null;

/** The review screen. */
export function ReviewScreen({ planId, sandboxId, path }: ReviewScreenProps): ReactElement {
  const view = usePlans((s) => s.views[planId]);
  const loadPlan = usePlans((s) => s.loadPlan);
  const review = useReview();
  const toast = useUi((s) => s.toast);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [outcome, setOutcome] = useState<OutcomeLines | null>(null);
  const [busy, setBusy] = useState(false);
  const [help, setHelp] = useState(false);
  const connected = useConnection((state) => state.connected);
  const [changeStep, setChangeStep] = useState<ChangeStep | null>(null);
  const [panelWidth, setPanelWidth] = usePersistedWidth('bindery.review.file-panel-width', PANEL_BOUNDS);
  const orderRef = useRef<string[]>([]);

  useEffect(() => {
    useReview.getState().open(planId, sandboxId);
    void useReview.getState().loadChanges();
    void loadPlan(planId);
  }, [planId, sandboxId, loadPlan]);
  const renew = useCallback(() => api.watchPlan({ plan: planId }).catch(() => undefined), [planId]);
  useEffect(() => void renew(), [renew]);
  usePolling(renew, 30_000, true);
  useAdaptivePolling(review.loadChanges, 2000, true);

  const sandbox = view?.sandboxes.find((s) => s.id === sandboxId) ?? null;
  // Committed files leave the list; every count here comes from change-counts.ts.
  const changes = useMemo(() => pendingChanges(review.changes), [review.changes]);
  const committed = changeCounts(review.changes).committed;
  // The scope (all, since my last review, one run) only narrows the list; commit still sees every change.
  const reviewScope = useReviewState((s) => s.scope);
  const scopePaths = useReviewState((s) => (s.loadedScope === scopeKey(s.scope) ? s.state?.scopePaths : undefined));
  const listed = useMemo(() => scopedChanges(changes, reviewScope, scopePaths), [changes, reviewScope, scopePaths]);
  useReviewStateSync(planId, sandboxId, review.changes?.version, view?.lastRun ? `${view.lastRun.id}:${view.lastRun.status}` : undefined);
  const selected = path !== null && changes.some((c) => c.path === path) ? path : (path ?? null);
  const change = changes.find((c) => c.path === selected) ?? null;
  const chosen = changes.filter((c) => !review.excluded[c.path]);
  const writable = chosen.filter((c) => c.drift !== 'applied').length;
  // While the tool's command runs, what it writes next would be left out or lost: both wait.
  const running = useRunning(view);
  const canCommit = writable > 0 && sandbox?.access !== 'read_only' && !running;
  const lastCommit =
    view?.commits.filter((c) => c.sandboxId === sandboxId && c.undoneAt === null).at(-1) ?? null;
  const notes = useReviewNotes(planId, sandboxId, change?.path ?? null, review.changes);

  const select = useCallback(
    (next: string) => replaceWith({ kind: 'review', planId, sandboxId, path: next }),
    [planId, sandboxId],
  );
  const onOrder = useCallback((order: string[]) => {
    orderRef.current = order;
  }, []);
  useEffect(() => {
    if (selected === null && orderRef.current.length > 0) select(orderRef.current[0] as string);
  }, [selected, changes, select]);

  // One listener on the window, so the keys work wherever focus is (even on the page itself);
  // it reads the latest state through a ref instead of being re-added on every render.
  const onKey = (event: KeyboardEvent) => {
    const action = reviewKey(event, dialog !== null || help);
    if (!action) return;
    event.preventDefault();
    if (action === 'help') setHelp(true);
    else if (action === 'toggle-viewed') {
      const row = (event.target as HTMLElement | null)?.closest?.<HTMLElement>('.file-row-main');
      const target = row?.dataset.path ?? selected;
      if (target) toggleViewed(target);
    }
    else if (action === 'commit') {
      if (canCommit) setDialog('commit');
    } else if (action === 'next-change' || action === 'previous-change') {
      setChangeStep((prev) => ({ step: action === 'next-change' ? 1 : -1, seq: (prev?.seq ?? 0) + 1 }));
    } else {
      const next = stepFile(orderRef.current, selected, action === 'next-file' ? 1 : -1);
      if (!next) return;
      select(next);
      // Focus follows only when it was in the list already; in the diff or elsewhere it stays.
      if ((event.target as HTMLElement | null)?.closest?.('.file-list')) {
        requestAnimationFrame(() =>
          document.querySelector<HTMLElement>(`.file-row-main[data-path="${CSS.escape(next)}"]`)?.focus(),
        );
      }
    }
  };
  const onKeyRef = useRef(onKey);
  onKeyRef.current = onKey;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyRef.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const afterCommit = (reports: CommitReport[]) => {
    setDialog(null);
    setOutcome({
      tone: reports.some((r) => r.committed) ? 'success' : 'warning',
      lines: reports.map((r) => r.summary),
    });
    void loadPlan(planId);
  };
  const discard = async () => {
    setBusy(true);
    try {
      const reports = await review.discard(false);
      if (reports.every((r) => r.outcome === 'discarded')) finishDiscard(reports.map((r) => r.summary));
      else setDialog({ discard: reports });
    } catch (error) {
      toast(errorMessage(error), 'error');
    } finally {
      setBusy(false);
    }
  };
  const finishDiscard = (lines: string[]) => {
    toast(lines.join(' '));
    void loadPlan(planId);
    goTo({ kind: 'plan', planId });
  };

  return (
    <div className="page review-page">
      <a
        className="back-link"
        href={`#/plans/${planId}`}
        onClick={(event) => (event.preventDefault(), goTo({ kind: 'plan', planId }))}
      >
        ← {view ? `${view.plan.toolName} in ${view.plan.projectName}` : 'Plan'}
      </a>
      <div className="page-header">
        <div>
          <h1 className="page-title">
            Review <span className="muted">·</span>{' '}
            {sandbox?.resourceName ?? review.changes?.resourceName ?? '…'}
          </h1>
          <p className="page-subtitle">
            {sandbox ? `${STRATEGY_LABELS[sandbox.strategy]} · ${ACCESS_LABELS[sandbox.access]} · ` : ''}
            {formatCount(changes.length, 'changed file')}
            {committed > 0 && <span className="muted"> · {formatNumber(committed)} already in the original</span>}
            {review.loading && <span className="live-dot" title="Refreshing" aria-hidden="true" />}
          </p>
        </div>
        <div className="page-actions">
          <button
            type="button"
            className="btn"
            disabled={!lastCommit || busy}
            onClick={() => lastCommit && setDialog({ undo: lastCommit })}
            title={lastCommit ? 'Restore the original as it was before the last commit' : 'No commit to undo'}
          >
            <Icon name="refresh" /> <span className="review-action-label">Undo last commit</span>
          </button>
          <button
            type="button"
            className="btn"
            disabled={busy || !sandbox || sandbox.status === 'discarded' || running}
            title={running ? RUNNING_HOLD : 'Discard the changes in this sandbox'}
            onClick={() => void discard()}
          >
            <Icon name="trash" /> <span className="review-action-label">Discard…</span>
          </button>
          <ReviewNotesToggle scope={notes.scope} />
          <button
            type="button"
            className="btn btn-ghost btn-icon"
            aria-label="Keyboard shortcuts"
            aria-keyshortcuts="?"
            title="Keyboard shortcuts (?)"
            onClick={() => setHelp(true)}
          >
            <span aria-hidden="true" className="help-glyph">
              ?
            </span>
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!canCommit}
            title={running ? RUNNING_HOLD : undefined}
            aria-keyshortcuts="Control+Enter Meta+Enter"
            onClick={() => setDialog('commit')}
          >
            <Icon name="check" /> Commit {chosen.length === changes.length ? 'all' : 'selected'} (
            {formatNumber(writable)})
          </button>
        </div>
      </div>
      <ReviewStateBar changes={changes} shown={listed.length} />
      {outcome && <OutcomeCallout outcome={outcome} onDismiss={() => setOutcome(null)} />}
      <ErrorCallout error={besideConnectionBar(review.changesError, connected)} />
      {review.changes?.violation && <ErrorCallout error={review.changes.violation} />}
      <div className="review-split" style={{ gridTemplateColumns: splitColumns(panelWidth, notes.panelOpen) }}>
        <FilePanel
          id="review-file-panel"
          changes={listed}
          emptyText={reviewScope.kind === 'all' ? undefined : 'No file changed in this scope. Choose "All changes" to see every file.'}
          selected={selected}
          onSelect={select}
          onOrder={onOrder}
        />
        <ResizeHandle
          width={panelWidth}
          bounds={PANEL_BOUNDS}
          label="Resize the file list"
          controls="review-file-panel"
          onResize={setPanelWidth}
        />
        <ReviewNotesScope scope={notes.scope}>
          {reviewScope.kind === 'run' && change ? (
            <RunDiffPanel change={change} runId={reviewScope.runId} changeStep={changeStep} />
          ) : (
            <DiffPanel change={change} changeStep={changeStep} />
          )}
        </ReviewNotesScope>
        {notes.panelOpen && <ReviewNotesPanel scope={notes.scope} view={view} onRunFinished={() => void loadPlan(planId)} />}
      </div>
      {help && <ShortcutsDialog groups={reviewShortcuts(commandKey())} onClose={() => setHelp(false)} />}
      {dialog === 'commit' && (
        <CommitDialog
          resourceName={sandbox?.resourceName ?? 'the original'}
          chosen={chosen}
          gitOriginal={sandbox ? hasGitOriginal(sandbox) : false}
          onCommit={(resolutions, gitMessage, selections) =>
            review.commit(
              // All is no paths (an empty list would select nothing).
              chosen.length === changes.length ? undefined : chosen.map((c) => c.path),
              resolutions,
              gitMessage,
              selections,
            )
          }
          onDone={afterCommit}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog !== null && dialog !== 'commit' && 'undo' in dialog && (
        <UndoDialog
          resourceName={sandbox?.resourceName ?? 'the original'}
          originalPath={sandbox?.originalPath ?? null}
          commit={dialog.undo}
          onUndo={() => review.undo().finally(() => void loadPlan(planId))}
          onRevert={(sha) => api.revertGitCommit({ plan: planId, sandbox: sandboxId, commit: sha })}
          onDone={(done) => (setDialog(null), setOutcome(done))}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog !== null && dialog !== 'commit' && 'discard' in dialog && (
        <DiscardDialog
          title={`Discard the sandbox of ${sandbox?.resourceName ?? 'this resource'}`}
          pending={dialog.discard}
          onConfirm={(force) => review.discard(true, force)}
          onDone={(reports) => {
            setDialog(null);
            finishDiscard(reports.map((r) => r.summary));
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

/**
 * The review's columns. With the notes panel open the file list and the panel give up width in
 * proportion to the window, so that at 1024 px the diff keeps a usable column between them.
 */
function splitColumns(fileWidth: number, notesOpen: boolean): string {
  return notesOpen
    ? `min(${fileWidth}px, 232px, 24%) 1px minmax(0, 1fr) clamp(240px, 28%, 300px)`
    : `${fileWidth}px 1px minmax(0, 1fr)`;
}
