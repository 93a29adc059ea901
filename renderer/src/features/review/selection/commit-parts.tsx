/**
 * The commit dialog's side of partial commits: which chosen files go in part ("2 of 4 hunks of
 * src/a.ts") with the contract's selections, and, when the commit is refused because chosen
 * hunks changed in the original too, which ones and a way to leave them out.
 */
import type { ReactElement } from 'react';
import type { ChangedFile } from '../../../../../shared/dto.ts';
import { filePatch, type ChangeKey } from '../../../../../shared/patch-selection.ts';
import { Icon } from '../../../components/icons.tsx';
import { changeSignature, diffKey, useReview } from '../../../stores/review-store.ts';
import { commitParts, hunkWords, type CommitPart, type RefusedHunks } from './commit-parts-model.ts';
import { changeKeys } from './selection-model.ts';
import { entryAt, selectionKey, usePartialSelection } from './selection-store.ts';
import './partial-commit.css';

/** The partly chosen files among `chosen` of the open review. */
export function useCommitParts(chosen: readonly ChangedFile[]): CommitPart[] {
  const plan = useReview((s) => s.planId);
  const sandbox = useReview((s) => s.sandboxId);
  const entries = usePartialSelection((s) => s.entries);
  if (!plan || !sandbox) return [];
  return commitParts(chosen, (change) => entryAt({ entries }, selectionKey(plan, sandbox, change.path), changeSignature(change)));
}

/** Drops the choices of the open review's files that changed since they were made (after a commit). */
export function prunePartial(): void {
  const { planId, sandboxId, changes } = useReview.getState();
  if (!planId || !sandboxId || !changes) return;
  const versions = new Map(changes.changes.map((change) => [change.path, changeSignature(change)]));
  usePartialSelection.getState().prune(planId, sandboxId, versions);
}

/** The list of files committed in part, under the dialog's opening sentence. */
export function PartList({ parts }: { parts: readonly CommitPart[] }): ReactElement | null {
  if (parts.length === 0) return null;
  return (
    <div className="commit-parts" aria-label="Committed in part">
      <ul>
        {parts.map((part) => (
          <li key={part.path}>{part.label}</li>
        ))}
      </ul>
      <p className="field-hint">
        Only the chosen changes are written; the rest stays in the sandbox for a later commit. A file changed in the original
        meanwhile takes them onto its current text.
      </p>
    </div>
  );
}

/**
 * Leaves `hunks` of a file out of its choice (the diff of the file must have been loaded, as it
 * was to choose them); false when that cannot be done here.
 */
export function leaveOutHunks(change: ChangedFile, hunks: readonly number[]): boolean {
  const { planId, sandboxId, diffs } = useReview.getState();
  const view = diffs[diffKey(change.path)]?.view;
  if (!planId || !sandboxId || view?.oldText == null || view.newText == null) return false;
  const patch = filePatch(view.oldText, view.newText);
  const key = selectionKey(planId, sandboxId, change.path);
  const version = changeSignature(change);
  const entry = entryAt(usePartialSelection.getState(), key, version);
  const chosen = new Set<ChangeKey>(entry ? entry.chosen : changeKeys(patch));
  for (const id of hunks) {
    for (const line of patch.hunks[id - 1]?.lines ?? []) {
      if (line.kind === 'del') chosen.delete(`-${line.oldNo as number}`);
      if (line.kind === 'add') chosen.delete(`+${line.newNo as number}`);
    }
  }
  const made = usePartialSelection.getState().choose(key, version, patch, chosen);
  useReview.getState().setSelected([change.path], made !== 'none');
  return true;
}

/** The refusal, said plainly: which hunks of which files, and what to do, with a way to do it. */
export function RefusedCallout({
  refused,
  onLeaveOut,
}: {
  refused: readonly RefusedHunks[];
  onLeaveOut(item: RefusedHunks): void;
}): ReactElement {
  return (
    <div className="callout callout-danger commit-refused" role="alert">
      <Icon name="alert" />
      <div className="callout-text">
        <strong>Nothing was written: chosen changes were also changed in the original.</strong>
        <ul>
          {refused.map((item) => (
            <li key={item.path}>
              {item.hunks.length > 0 ? (
                <>
                  {capitalized(hunkWords(item.hunks))} of <code className="mono">{item.path}</code>{' '}
                  changed in the original since the sandbox was made.{' '}
                  <button type="button" className="btn btn-sm" onClick={() => onLeaveOut(item)}>
                    Leave out {hunkWords(item.hunks)}
                  </button>
                </>
              ) : (
                <>
                  <code className="mono">{item.path}</code> changed in the original and its base is not kept, so its hunks
                  cannot be told apart: take the whole file and settle the conflict.
                </>
              )}
            </li>
          ))}
        </ul>
        <span>
          Leave those hunks out and commit the others now; to bring them over too, commit the whole file later and choose
          Keep original, Take sandbox or Merge.
        </span>
      </div>
    </div>
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
