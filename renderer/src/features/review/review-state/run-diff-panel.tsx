/**
 * The diff of one file in one run of the tool (the review's run scope, issue 23): the file at the
 * run's start against the file at its end, loaded for that file only, in the same viewer.
 */
import { useEffect, useState, type ReactElement } from 'react';
import type { ChangedFile, FileDiffView } from '../../../../../shared/dto.ts';
import { api } from '../../../api/index.ts';
import { ErrorCallout } from '../../../components/error-callout.tsx';
import { Icon } from '../../../components/icons.tsx';
import { changeSignature, useReview } from '../../../stores/review-store.ts';
import { DiffView, type ChangeStep } from '../diff/index.ts';
import { runLabel } from './review-state-logic.ts';
import { useReviewState } from './review-state-store.ts';

/** Props: the change selected, the run, and the screen's n/p step. */
export interface RunDiffPanelProps {
  change: ChangedFile;
  runId: string;
  changeStep?: ChangeStep | null;
}

/** One file's change in one run. */
export function RunDiffPanel({ change, runId, changeStep }: RunDiffPanelProps): ReactElement {
  const planId = useReview((s) => s.planId);
  const sandboxId = useReview((s) => s.sandboxId);
  const diffMode = useReview((s) => s.diffMode);
  const setDiffMode = useReview((s) => s.setDiffMode);
  const runs = useReviewState((s) => s.state?.runs ?? []);
  const [loaded, setLoaded] = useState<{ key: string; view: FileDiffView | null; error: unknown } | null>(null);
  const [full, setFull] = useState(false);
  const key = `${runId}\u0000${change.path}\u0000${changeSignature(change)}\u0000${full}`;

  useEffect(() => {
    if (!planId || !sandboxId) return;
    let live = true;
    api
      .fileDiff({ plan: planId, sandbox: sandboxId, path: change.path, full, scope: { kind: 'run', runId } })
      .then(
        (view) => live && setLoaded({ key, view, error: null }),
        (error: unknown) => live && setLoaded({ key, view: null, error }),
      );
    return () => {
      live = false;
    };
  }, [planId, sandboxId, change.path, runId, full, key]);

  const current = loaded?.key === key ? loaded : null;
  return (
    <div className="review-pane" aria-busy={!current}>
      <p className="run-scope-note" role="note">
        <Icon name="info" size={14} />
        <span>
          Only what <strong>{runLabel(runs, runId)}</strong> changed in this file: the file as the run found it, against the file as it left it.
        </span>
      </p>
      <ErrorCallout error={current?.error ?? null} />
      {current?.view ? (
        <DiffView file={current.view} mode={diffMode} onModeChange={setDiffMode} onRequestFullText={() => setFull(true)} className="review-diff" fileKeys changeStep={changeStep} />
      ) : (
        !current?.error && (
          <div className="diff-loading">
            <span className="spinner" aria-hidden="true" /> Loading {change.path}…
          </div>
        )
      )}
    </div>
  );
}
