/**
 * "Commit all" on the plan page: what each sandbox would write, conflicts that must be settled in
 * the review first (commit all writes nothing while any is open), and the optional git commit.
 */
import { useState, type ReactElement } from 'react';
import type { CommitReport, SandboxChangeList, SandboxInfo } from '../../../../shared/dto.ts';
import { ErrorCallout } from '../../components/error-callout.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSubmit } from '../../hooks/use-submit.ts';
import { commitNotice } from '../../lib/orphan-outcome.ts';
import { changeCounts } from '../../stores/change-counts.ts';
import { GitCommitOption } from './git-commit-option.tsx';
import { goTo } from './plan-route.ts';

/** Props: the plan's live sandboxes with their change lists, and the commit action. */
export interface CommitAllDialogProps {
  sandboxes: SandboxInfo[];
  changes: SandboxChangeList[];
  onCommit(gitMessage: string | undefined): Promise<CommitReport[]>;
  onDone(reports: CommitReport[]): void;
  onClose(): void;
  /** The tool's command was stopped to open this dialog (Stop and commit…): says so, and that Cancel leaves it stopped. */
  stoppedRun?: boolean;
}

/** True when the sandbox's original is a git work tree (a commit on its branch is possible). */
export function hasGitOriginal(sandbox: SandboxInfo): boolean {
  return sandbox.strategy === 'git_worktree' || sandbox.requestedStrategy === 'git_worktree';
}

/** The dialog. */
export function CommitAllDialog({
  sandboxes,
  changes,
  onCommit,
  onDone,
  onClose,
  stoppedRun,
}: CommitAllDialogProps): ReactElement {
  const [useGit, setUseGit] = useState(false);
  const [message, setMessage] = useState('');
  const rows = sandboxes.map((s) => {
    const { pending, conflicts } = changeCounts(changes.find((c) => c.sandboxId === s.id));
    return { sandbox: s, pending, conflicts };
  });
  const conflicts = rows.reduce((sum, r) => sum + r.conflicts, 0);
  const pending = rows.reduce((sum, r) => sum + r.pending, 0);
  const git = sandboxes.some(hasGitOriginal);
  const state = useSubmit(async () => onCommit(useGit && message.trim() ? message.trim() : undefined), onDone, {
    label: 'Commit every sandbox',
    success: commitNotice,
  });
  return (
    <FormDialog
      title="Commit every sandbox"
      submitLabel={`Commit ${pending} change${pending === 1 ? '' : 's'}`}
      busyLabel="Committing…"
      state={state}
      onClose={onClose}
      blocked={conflicts > 0 || pending === 0 || (useGit && message.trim() === '')}
    >
      {stoppedRun && (
        <p role="note">
          The tool&apos;s command was stopped. If you cancel, it stays stopped: run the tool again from the plan page to go on.
        </p>
      )}
      <p>
        Every change is written to its original. All sandboxes are checked first: if any path changed in its
        original meanwhile, nothing is written.
      </p>
      <ul className="confirm-list" aria-label="Sandboxes to commit">
        {rows.map(({ sandbox, pending: n, conflicts: c }) => (
          <li key={sandbox.id}>
            <strong>{sandbox.resourceName}</strong>: {n} change{n === 1 ? '' : 's'}
            {c > 0 && (
              <>
                {' '}
                · <span className="text-danger">{c} in conflict</span> ·{' '}
                <a
                  href={`#/plans/${sandbox.planId}/review/${sandbox.id}`}
                  onClick={(event) => {
                    event.preventDefault();
                    onClose();
                    goTo({ kind: 'review', planId: sandbox.planId, sandboxId: sandbox.id, path: null });
                  }}
                >
                  resolve in review
                </a>
              </>
            )}
          </li>
        ))}
      </ul>
      {conflicts > 0 && (
        <ErrorCallout
          error={`${conflicts} path${conflicts === 1 ? ' is' : 's are'} in conflict. Choose keep original, take sandbox or merge for each in the review, then commit from there.`}
        />
      )}
      {git && (
        <GitCommitOption
          label="Also create a git commit on the current branch of git originals"
          on={useGit}
          message={message}
          onToggle={setUseGit}
          onMessage={setMessage}
        />
      )}
      <ErrorCallout error={state.error} />
    </FormDialog>
  );
}
