/**
 * The words of the review workflow: commit, undo and discard outcomes turned into reports that
 * say what was written, what was skipped and why, so every host shows the same sentences.
 */
import {
  describeCounts,
  type CommitReport,
  type DiscardReport,
  type HandlerSandbox,
  type PlanView,
  type SandboxInfo,
  type UndoReport,
} from '../../../shared/dto.ts';
import type { CommitOutcome } from '../../sandbox/index.ts';
import type { DiscardOutcome } from '../../sandbox/index.ts';
import { displayPath } from '../../sandbox/index.ts';
import type { PlanDetail } from '../plan-service.ts';

/** A sandbox without the handler-facing `context` (it repeats `path`). */
export function sandboxInfo(sandbox: HandlerSandbox): SandboxInfo {
  const { context: _context, ...info } = sandbox;
  return info;
}

/** The plan page's view of a plan detail; the caller adds what lives outside the plan service. */
export function planView(
  detail: PlanDetail,
  extra: Pick<PlanView, 'toolRun' | 'provisioning' | 'lastRun'>,
): PlanView {
  return { ...detail, sandboxes: detail.sandboxes.map(sandboxInfo), ...extra };
}

/** "3 files" / "1 file". */
export function files(count: number): string {
  return `${count} file${count === 1 ? '' : 's'}`;
}

/** A short list of paths for a sentence: the first few, then how many more. */
export function pathList(paths: string[], shown = 3): string {
  const head = paths.slice(0, shown).map(displayPath).join(', ');
  return paths.length > shown ? `${head} and ${paths.length - shown} more` : head;
}

/** A commit outcome in data and words. */
export function commitReport(outcome: CommitOutcome, resourceName: string): CommitReport {
  if (outcome.kind === 'nothing') {
    return {
      sandboxId: outcome.sandboxId,
      resourceName,
      committed: false,
      written: [],
      deleted: [],
      skipped: outcome.skipped,
      partial: [],
      gitCommit: null,
      summary: `${resourceName}: nothing written (${outcome.reason}).${keptSentence(outcome.skipped)}`,
    };
  }
  const { written, deleted, gitCommit } = outcome.commit;
  const wrote = [
    written.length > 0 ? `wrote ${files(written.length)} (${pathList(written)})` : null,
    deleted.length > 0 ? `deleted ${files(deleted.length)} (${pathList(deleted)})` : null,
  ]
    .filter(Boolean)
    .join(' and ');
  const git = gitCommit ? ` Created git commit ${gitCommit.slice(0, 12)} on the current branch.` : '';
  return {
    sandboxId: outcome.sandboxId,
    resourceName,
    committed: true,
    written,
    deleted,
    skipped: outcome.skipped,
    partial: outcome.partial,
    gitCommit,
    summary: `${resourceName}: ${wrote || 'no file changed'}.${partSentence(outcome.partial)}${git}${keptSentence(outcome.skipped)}`,
  };
}

function partSentence(partial: string[]): string {
  return partial.length > 0
    ? ` Of ${files(partial.length)} (${pathList(partial)}) only the chosen changes were written; the rest stays pending in the sandbox.`
    : '';
}

function keptSentence(skipped: string[]): string {
  return skipped.length > 0
    ? ` Skipped ${files(skipped.length)} (${pathList(skipped)}): the original was kept or already had the change.`
    : '';
}

/** An undo in data and words. */
export function undoReport(
  sandboxId: string,
  resourceName: string,
  result: { restored: string[]; gitCommit: string | null },
): UndoReport {
  // The undo restores files only: the branch keeps the git commit until a revert commit is made.
  const git = result.gitCommit
    ? ` The git commit ${result.gitCommit.slice(0, 12)} stays on the branch: make a revert commit to take it back there too.`
    : '';
  return {
    sandboxId,
    restored: result.restored,
    gitCommit: result.gitCommit,
    summary: `${resourceName}: undid the last commit; restored ${files(result.restored.length)} in the original${result.restored.length > 0 ? ` (${pathList(result.restored)})` : ''}.${git}`,
  };
}

/** A discard outcome in data and words. */
export function discardReport(outcome: DiscardOutcome, names: Map<string, string>): DiscardReport {
  const resourceName =
    'resourceName' in outcome ? outcome.resourceName : (names.get(outcome.sandboxId) ?? outcome.sandboxId);
  const base = { sandboxId: outcome.sandboxId, resourceName, counts: null, trashId: null, reason: null };
  switch (outcome.kind) {
    case 'needs_confirmation':
      return {
        ...base,
        outcome: outcome.kind,
        counts: outcome.counts,
        summary: `${resourceName} has ${describeCounts(outcome.counts)}: confirm to move them to the trash (recoverable).`,
      };
    case 'unknown':
      return {
        ...base,
        outcome: outcome.kind,
        reason: outcome.reason,
        summary: `${resourceName}: ${outcome.reason}. Nothing was discarded; discard with force to remove it anyway.`,
      };
    case 'ready':
      return {
        ...base,
        outcome: outcome.kind,
        counts: outcome.counts,
        summary: `${resourceName} can be discarded (${describeCounts(outcome.counts)}).`,
      };
    case 'discarded':
      return {
        ...base,
        outcome: outcome.kind,
        counts: outcome.counts,
        trashId: outcome.trashId,
        summary: outcome.trashId
          ? `Discarded the sandbox of ${resourceName}; its ${outcome.counts ? describeCounts(outcome.counts) : 'changes'} are in the trash and can be restored.`
          : `Discarded the sandbox of ${resourceName}; it had no changes.`,
      };
  }
}
