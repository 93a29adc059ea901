/**
 * Committing a sandbox: how many selected files will be written, and for each selected file in
 * conflict its three sides (a three-way view where the same lines changed on both, or the sandbox
 * beside the original now or the base), with Keep original / Take sandbox / Merge, chosen before
 * anything is written (Merge only where its dry run succeeded); the optional git commit; progress.
 */
import { useEffect, useState, type ReactElement } from 'react';
import type { ChangedFile, CommitReport, ResolutionValue } from '../../../../shared/dto.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSubmit } from '../../hooks/use-submit.ts';
import { commitNotice } from '../../lib/orphan-outcome.ts';
import { formatCount, formatNumber, nounFor } from '../../lib/counts.ts';
import { GitCommitOption } from '../plans/git-commit-option.tsx';
import { diffKey, useReview } from '../../stores/review-store.ts';
import { mergeable, mergeUnavailable, useMergePreviews, type PreviewState } from './conflict-previews.ts';
import { ThreeWayView } from './conflict-three-way.tsx';
import { DiffView } from './diff/index.ts';
import { conflictSentence } from './file-rows.ts';
import { leaveOutHunks, PartList, prunePartial, RefusedCallout, useCommitParts } from './selection/commit-parts.tsx';
import { refusedHunks, selectionsOf } from './selection/commit-parts-model.ts';
import type { FileSelection } from './selection/selection-model.ts';
import './commit-dialog.css';

/** Props: the chosen changes, whether the original is a git work tree, and the commit action. */
export interface CommitDialogProps {
  resourceName: string;
  chosen: ChangedFile[];
  gitOriginal: boolean;
  onCommit(
    resolutions: Record<string, ResolutionValue>,
    gitMessage: string | undefined,
    /** The chosen hunks and lines of files committed in part (undefined: every file whole). */
    selections: Record<string, FileSelection> | undefined,
  ): Promise<CommitReport[]>;
  onDone(reports: CommitReport[]): void;
  onClose(): void;
}

const CHOICES: Array<{ value: ResolutionValue; label: string; hint: string }> = [
  {
    value: 'ours',
    label: 'Keep original',
    hint: 'Leave the original as it is now; the sandbox change is skipped.',
  },
  { value: 'theirs', label: 'Take sandbox', hint: "Write the sandbox's version over the original's." },
  {
    value: 'merge',
    label: 'Merge',
    hint: 'Both edits together: the three-way merge of base, original and sandbox succeeds.',
  },
];

/** What the conflict view compares: the three sides, or the sandbox with the original now or with the base. */
type ConflictLayout = 'three-way' | 'original' | 'base';

/** The dialog. */
export function CommitDialog({
  resourceName,
  chosen,
  gitOriginal,
  onCommit,
  onDone,
  onClose,
}: CommitDialogProps): ReactElement {
  const parts = useCommitParts(chosen);
  // A file committed in part goes onto the original as it is, hunk by hunk: no conflict choice.
  const inPart = new Set(parts.map((part) => part.path));
  const conflicts = chosen.filter((c) => c.drift === 'conflict' && !inPart.has(c.path));
  const writes = chosen.filter((c) => c.drift !== 'applied');
  const [resolutions, setResolutions] = useState<Record<string, ResolutionValue>>({});
  const [index, setIndex] = useState(0);
  const [useGit, setUseGit] = useState(false);
  const [message, setMessage] = useState('');
  const unresolved = conflicts.filter((c) => !resolutions[c.path]).length;
  const previews = useMergePreviews(conflicts);
  const state = useSubmit(
    async () => {
      const reports = await onCommit(resolutions, useGit && message.trim() ? message.trim() : undefined, selectionsOf(parts));
      // Here, not in onDone: the committed files' partial choices go even when the dialog is gone.
      prunePartial();
      return reports;
    },
    onDone,
    { label: `Commit to ${resourceName}`, success: commitNotice },
  );
  const current = conflicts[Math.min(index, conflicts.length - 1)] ?? null;
  const refused = refusedHunks(state.error);

  return (
    <FormDialog
      title={`Commit to ${resourceName}`}
      submitLabel={`Commit ${formatCount(writes.length, 'file')}`}
      busyLabel="Committing…"
      state={state}
      onClose={onClose}
      wide={conflicts.length > 0}
      blocked={writes.length === 0 || unresolved > 0 || (useGit && message.trim() === '')}
      note={unresolved > 0 ? `${formatCount(unresolved, 'conflict')} to settle` : undefined}
    >
      <p>
        {formatNumber(writes.length)} selected {nounFor(writes.length, 'file')} will be written to the original, each
        checked again just before it is written. A crash midway leaves every file wholly old or wholly new,
        and you can undo the commit afterwards.
      </p>
      <PartList parts={parts} />
      {conflicts.length > 0 && current && (
        <section className="conflict-resolver" aria-label="Conflicts">
          <div className="conflict-resolver-head">
            <strong>
              Conflict {formatNumber(Math.min(index, conflicts.length - 1) + 1)} of {formatNumber(conflicts.length)}
            </strong>
            <code className="mono truncate">{current.path}</code>
            <span className="header-spacer" />
            <button
              type="button"
              className="btn btn-sm"
              disabled={index === 0}
              onClick={() => setIndex(index - 1)}
            >
              Previous
            </button>
            <button
              type="button"
              className="btn btn-sm"
              disabled={index >= conflicts.length - 1}
              onClick={() => setIndex(index + 1)}
            >
              Next
            </button>
          </div>
          <p className="muted conflict-reason">{conflictSentence(current.driftReason)}</p>
          <ConflictView key={current.path} change={current} preview={previews[current.path]} />
          <MergeNote reason={mergeUnavailable(current, previews[current.path])} />
          <div className="resolution-choices" role="radiogroup" aria-label={`Resolution for ${current.path}`}>
            {CHOICES.filter(
              (choice) => choice.value !== 'merge' || mergeUnavailable(current, previews[current.path]) === null,
            ).map((choice) => (
              <label
                key={choice.value}
                className={`resolution-choice${resolutions[current.path] === choice.value ? ' is-chosen' : ''}`}
              >
                <input
                  type="radio"
                  name={`resolution-${current.path}`}
                  checked={resolutions[current.path] === choice.value}
                  onChange={() => {
                    setResolutions({ ...resolutions, [current.path]: choice.value });
                    if (index < conflicts.length - 1) setIndex(index + 1);
                  }}
                />
                <span>
                  <strong>{choice.label}</strong>
                  <span className="field-hint">{choice.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </section>
      )}
      {gitOriginal && (
        <GitCommitOption
          label="Also create a git commit on the original's current branch (otherwise only the working tree changes)"
          on={useGit}
          message={message}
          onToggle={setUseGit}
          onMessage={setMessage}
        />
      )}
      {state.busy && (
        <div className="progress" role="progressbar" aria-label="Commit progress">
          <div className="progress-bar is-indeterminate" />
        </div>
      )}
      {refused ? (
        <RefusedCallout
          refused={refused}
          onLeaveOut={(item) => {
            const change = chosen.find((c) => c.path === item.path);
            if (change && leaveOutHunks(change, item.hunks)) state.setError(null);
          }}
        />
      ) : (
        <ErrorCallout error={state.error} />
      )}
    </FormDialog>
  );
}

/** Why Merge is missing from the choices, said where the choices are. */
function MergeNote({ reason }: { reason: string | null }): ReactElement | null {
  if (reason === null) return null;
  return (
    <p className="field-hint merge-note" role="note">
      <strong>Merge is not offered:</strong> {reason}
    </p>
  );
}

/** One conflict: the three-way view where the dry run found clashing lines, else two sides of a diff. */
function ConflictView({ change, preview }: { change: ChangedFile; preview: PreviewState | undefined }): ReactElement {
  const hunks = preview?.kind === 'done' && preview.preview.outcome === 'conflicts' ? preview.preview.hunks : null;
  const [chosen, setChosen] = useState<ConflictLayout | null>(null);
  // Until a mergeable file's dry run answers, show neither layout, so the view does not jump under the reader.
  const deciding = chosen === null && mergeable(change) && (!preview || preview.kind === 'pending');
  const layout: ConflictLayout = chosen ?? (hunks ? 'three-way' : 'original');
  const options: Array<{ value: ConflictLayout; label: string }> = [
    ...(hunks ? [{ value: 'three-way' as const, label: 'Base | Original | Sandbox' }] : []),
    { value: 'original', label: 'Original now → Sandbox' },
    { value: 'base', label: 'Base → Sandbox' },
  ];
  return (
    <>
      <span className="segmented conflict-layout" role="radiogroup" aria-label="Compare">
        {options.map((option) => (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={layout === option.value}
            className="segmented-option"
            onClick={() => setChosen(option.value)}
          >
            {option.label}
          </button>
        ))}
      </span>
      {deciding ? (
        <p className="muted conflict-diff">Trying the merge…</p>
      ) : layout === 'three-way' && hunks ? (
        <div className="conflict-diff">
          <ThreeWayView hunks={hunks} />
        </div>
      ) : (
        <ConflictDiff change={change} against={layout === 'base' ? 'base' : 'original'} />
      )}
    </>
  );
}

function ConflictDiff({ change, against }: { change: ChangedFile; against: 'base' | 'original' }): ReactElement {
  const loadDiff = useReview((s) => s.loadDiff);
  const entry = useReview((s) => s.diffs[diffKey(change.path, against)]);
  useEffect(() => {
    void loadDiff(change.path, { against });
  }, [change.path, against, loadDiff]);
  return (
    <div className="conflict-diff">
      <ErrorCallout error={entry?.error ?? null} />
      {entry?.view ? (
        <DiffView file={entry.view} defaultMode="split" />
      ) : (
        !entry?.error && <p className="muted">Loading both sides…</p>
      )}
    </div>
  );
}
