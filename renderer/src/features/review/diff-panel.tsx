/**
 * The diff of the selected file: loads it (again when the file changes under a running tool),
 * shows it in the shared DiffView (unified or split; an added or deleted file, one side empty,
 * opens unified), and for a file in conflict says so and offers to compare the sandbox with the
 * original as it is now.
 */
import { useEffect, useState, type ReactElement } from 'react';
import type { ChangedFile } from '../../../../shared/dto.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { Icon } from '../../components/icons.tsx';
import { besideConnectionBar } from '../../lib/errors.ts';
import { useConnection } from '../../stores/connection-store.ts';
import { changeSignature, diffKey, useReview } from '../../stores/review-store.ts';
import { layoutFor, oneSided } from './diff-layout.ts';
import { DiffView, type ChangeStep, type DiffMode } from './diff/index.ts';
import { conflictSentence } from './file-rows.ts';
import { PartialScopeContext } from './selection/partial-scope.ts';

/** Props: the change shown, and a step through its changes asked for by the screen's n/p keys. */
export interface DiffPanelProps {
  change: ChangedFile | null;
  changeStep?: ChangeStep | null;
}

/** The panel for one change (or none). */
export function DiffPanel({ change, changeStep }: DiffPanelProps): ReactElement {
  const [against, setAgainst] = useState<'base' | 'original'>('base');
  const [full, setFull] = useState(false);
  // A layout picked for an added or deleted file lasts while it is shown, not for every file.
  const [override, setOverride] = useState<DiffMode | null>(null);
  const loadDiff = useReview((s) => s.loadDiff);
  const diffMode = useReview((s) => s.diffMode);
  const setDiffMode = useReview((s) => s.setDiffMode);
  const connected = useConnection((state) => state.connected);
  const path = change?.path ?? null;
  const signature = change ? changeSignature(change) : null;
  const entry = useReview((s) => (path ? s.diffs[diffKey(path, against, full)] : undefined));
  const excluded = useReview((s) => (path ? s.excluded[path] === true : false));
  const setSelected = useReview((s) => s.setSelected);

  useEffect(() => {
    setAgainst('base');
    setFull(false);
    setOverride(null);
  }, [path]);
  useEffect(() => {
    if (path) void loadDiff(path, { against, full });
  }, [path, signature, against, full, loadDiff]);

  if (!change) {
    return (
      <div className="review-pane is-empty">
        <EmptyState icon="file" title="Select a file">
          Choose a file on the left, or move with j and k. In a diff, n and p jump between changes; ? lists
          every shortcut.
        </EmptyState>
      </div>
    );
  }
  const view = entry?.view ?? null;
  const planId = useReview.getState().planId;
  const sandboxId = useReview.getState().sandboxId;
  // Hunks and lines are chosen against the base only: the engine commits that patch.
  const scope =
    planId && sandboxId && signature && against === 'base' && view?.against === 'base'
      ? { plan: planId, sandbox: sandboxId, path: change.path, version: signature, excluded, setSelected }
      : null;
  return (
    <div className="review-pane" aria-busy={entry?.loading ?? true}>
      {change.drift === 'conflict' && (
        <div className="conflict-banner" role="note">
          <Icon name="alert" />
          <span>
            <strong>In conflict.</strong> {conflictSentence(change.driftReason)} Committing asks you to keep
            the original, take the sandbox or merge.
          </span>
          <span className="segmented" role="radiogroup" aria-label="Compare the sandbox with">
            <button
              type="button"
              role="radio"
              aria-checked={against === 'base'}
              className="segmented-option"
              onClick={() => setAgainst('base')}
            >
              Base
            </button>
            <button
              type="button"
              role="radio"
              aria-checked={against === 'original'}
              className="segmented-option"
              onClick={() => setAgainst('original')}
            >
              Original now
            </button>
          </span>
        </div>
      )}
      {view?.against === 'original' && against === 'base' && (
        <p className="diff-against-note muted">
          The base of this file is not kept, so the sandbox is compared with the original as it is now.
        </p>
      )}
      <ErrorCallout error={besideConnectionBar(entry?.error ?? null, connected)} />
      {view ? (
        <PartialScopeContext.Provider value={scope}>
          <DiffView
            key={`${view.newPath ?? ''}|${view.oldPath ?? ''}|${against}`}
            file={view}
            mode={layoutFor(change.kind, diffMode, override)}
            onModeChange={(mode) =>
              oneSided(change.kind) ? setOverride(mode) : setDiffMode(mode)
            }
            onRequestFullText={() => setFull(true)}
            className="review-diff"
            fileKeys
            changeStep={changeStep}
          />
        </PartialScopeContext.Provider>
      ) : (
        !entry?.error && (
          <div className="diff-loading">
            <span className="spinner" aria-hidden="true" /> Loading {change.path}…
          </div>
        )
      )}
    </div>
  );
}
