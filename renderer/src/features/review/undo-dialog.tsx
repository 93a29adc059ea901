/**
 * Undoing a sandbox's last commit, asked first: what will be restored and, when the commit also
 * made a git commit, that the undo restores the working tree only and the git commit stays on the
 * branch. After such an undo the dialog offers the revert commit, and says why when git cannot.
 */
import { useState, type ReactElement } from 'react';
import type { CommitInfo, RevertReport, UndoReport } from '../../../../shared/dto.ts';
import { Dialog } from '../../components/dialog.tsx';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSubmit } from '../../hooks/use-submit.ts';
import { formatCount } from '../../lib/counts.ts';
import type { OutcomeLines } from './outcome-callout.tsx';

/** Props: the commit to undo and the two actions. */
export interface UndoDialogProps {
  resourceName: string;
  originalPath: string | null;
  commit: CommitInfo;
  onUndo(): Promise<UndoReport>;
  onRevert(sha: string): Promise<RevertReport>;
  /** The dialog is done; `outcome` is what to show on the page. */
  onDone(outcome: OutcomeLines): void;
  onClose(): void;
}

/** The dialog: the confirmation, then (for a git commit) the revert offer. */
export function UndoDialog(props: UndoDialogProps): ReactElement {
  const [undone, setUndone] = useState<UndoReport | null>(null);
  return undone?.gitCommit ? <RevertOffer {...props} undone={undone} sha={undone.gitCommit} /> : <Confirm {...props} onUndone={setUndone} />;
}

function Confirm({ resourceName, originalPath, commit, onUndo, onDone, onClose, onUndone }: UndoDialogProps & { onUndone(report: UndoReport): void }): ReactElement {
  const state = useSubmit(
    onUndo,
    (report) => {
      if (report.gitCommit) onUndone(report);
      else onDone({ tone: 'success', lines: [report.summary] });
    },
    {
      label: `Undo of the last commit to ${resourceName}`,
      // The revert offer has no dialog left to show in: the notice says where it is.
      success: (report) =>
        report.gitCommit
          ? { tone: 'warning', message: `${report.summary} Git commit ${report.gitCommit.slice(0, 12)} stays on the branch.` }
          : report.summary,
    },
  );
  const files = commit.written.length + commit.deleted.length;
  return (
    <FormDialog title={`Undo the last commit to ${resourceName}?`} submitLabel="Undo commit" busyLabel="Undoing…" state={state} onClose={onClose} danger alert>
      <p>
        Restores {formatCount(files, 'file')} in {originalPath ? <code className="mono">{originalPath}</code> : 'the original'} as they were
        before the commit, from the backups it kept. If any of them changed there since, nothing is restored.
      </p>
      {commit.gitCommit && (
        <p className="undo-git-note" role="note">
          This commit also made git commit <code className="mono">{commit.gitCommit.slice(0, 12)}</code> on the branch. Undo restores
          the working tree only: the git commit stays on the branch. Afterwards you can make a revert commit for it.
        </p>
      )}
      <ErrorCallout error={state.error} />
    </FormDialog>
  );
}

function RevertOffer({ undone, sha, onRevert, onDone }: UndoDialogProps & { undone: UndoReport; sha: string }): ReactElement {
  const [refused, setRefused] = useState<RevertReport | null>(null);
  const keep = () => onDone({ tone: 'warning', lines: [undone.summary] });
  const state = useSubmit(
    () => onRevert(sha),
    (report) => {
      if (report.reverted) onDone({ tone: 'success', lines: [undone.summary, report.summary] });
      else setRefused(report);
    },
    { label: `Revert of git commit ${sha.slice(0, 12)}`, success: (report) => ({ tone: report.reverted ? 'success' : 'warning', message: report.summary }) },
  );
  const { busy, error } = state;
  const revert = state.submit;
  return (
    <Dialog
      title="Commit undone; the git commit stays"
      onClose={keep}
      onSubmit={() => void revert()}
      alert
      // Keeping the git commit while its revert is being made would leave the outcome untold.
      busy={busy}
      closeLabel={refused ? 'Close' : 'Keep the git commit'}
      footer={
        !refused && (
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Making the revert commit…' : 'Make a revert commit'}
          </button>
        )
      }
    >
      <p role="status">{undone.summary}</p>
      <p className="muted">
        The revert commit is made as git revert makes it, on the current branch; the working tree stays as the undo restored
        it. If the branch changed the same lines since, you are told why and nothing is made.
      </p>
      {refused && <ErrorCallout error={refused.summary} />}
      <ErrorCallout error={error} />
    </Dialog>
  );
}
