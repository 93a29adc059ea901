/** What start-up recovery found and did, in words: the doctor's "interrupted work" check and the CLI's note. */
import type { InterruptedWork, StartRecovery } from './start-recovery.ts';

/** A summary of one start's recovery. */
export interface RecoverySummary {
  /** False when something is still interrupted or recovery failed. */
  ok: boolean;
  /** True when recovery finished, undid or removed something. */
  acted: boolean;
  detail: string;
}

/** Says what the start's recovery did, and what it could not do with what the user can do about it. */
export function summarizeStartRecovery(recovery: StartRecovery): RecoverySummary {
  const done: string[] = [];
  const problems: string[] = [];
  const report = recovery.report;
  if (report) {
    const by = (outcome: string) => report.transactions.filter((t) => t.outcome === outcome);
    const ids = (list: Array<{ transactionId: string }>) => list.map((t) => t.transactionId).join(', ');
    if (by('completed').length) done.push(`finished ${count(by('completed').length, 'interrupted commit')} (${ids(by('completed'))})`);
    if (by('rolled_back').length) done.push(`rolled back ${count(by('rolled_back').length, 'interrupted commit')} (${ids(by('rolled_back'))}), so its files are as before`);
    if (by('undone').length) done.push(`finished ${count(by('undone').length, 'interrupted undo')} (${ids(by('undone'))})`);
    const untouched = report.transactions.reduce((sum, t) => sum + (t.untouched?.length ?? 0), 0);
    if (untouched) done.push(`left ${count(untouched, 'file')} someone changed meanwhile as they are`);
    for (const waiting of by('waiting')) problems.push(`The interrupted commit or undo ${waiting.transactionId} waits: ${waiting.reason ?? 'its folder is not there.'}`);
    const trashDone = report.trash.filter((t) => t.outcome !== 'failed');
    if (trashDone.length) done.push(`finished or undid ${count(trashDone.length, 'interrupted discard or restore', 'interrupted discards or restores')}`);
    for (const failed of report.trash.filter((t) => t.outcome === 'failed')) problems.push(`An interrupted discard or restore (${failed.trashId}) could not be finished: ${failed.reason ?? ''}`);
    if (report.abandoned.length) done.push(`removed ${count(report.abandoned.length, 'half-made sandbox', 'half-made sandboxes')} of a stopped provisioning`);
  }
  if (recovery.error) problems.push(`Recovery failed: ${recovery.error}`);
  const waiting = new Set(report?.transactions.filter((t) => t.outcome === 'waiting').map((t) => t.transactionId));
  const failedTrash = new Set(report?.trash.filter((t) => t.outcome === 'failed').map((t) => t.trashId));
  const left = { ...recovery.left, transactions: recovery.left.transactions.filter((id) => !waiting.has(id)), trash: recovery.left.trash.filter((id) => !failedTrash.has(id)) };
  problems.push(...leftProblems(left));
  const acted = done.length > 0;
  const busy = recovery.left.busy ? ` ${count(recovery.left.busy, 'piece')} of work under way in another Bindery process ${recovery.left.busy === 1 ? 'was' : 'were'} left to it.` : '';
  const said = acted ? `Recovery at start ${done.join('; ')}.` : problems.length ? '' : `No interrupted work found (looked in ${recovery.ms.toFixed(1)} ms).`;
  return { ok: problems.length === 0, acted, detail: [said, ...problems].filter(Boolean).join(' ') + busy };
}

/** What is still interrupted after recovery, beyond what its report already says. */
function leftProblems(left: InterruptedWork): string[] {
  const problems: string[] = [];
  if (left.unrecorded.length) {
    problems.push(
      `${count(left.unrecorded.length, 'commit')} (${left.unrecorded.join(', ')}) changed the original folder, but Bindery has no record of ${left.unrecorded.length === 1 ? 'it' : 'them'} ` +
        '(the process stopped in between), so undo cannot find it; the backups stay in the journal folder.',
    );
  }
  if (left.transactions.length) {
    problems.push(
      `${count(left.transactions.length, 'interrupted commit or undo', 'interrupted commits or undos')} (${left.transactions.join(', ')}) not finished yet: ` +
        'the next start of any bindery command finishes or undoes them.',
    );
  }
  if (left.trash.length) problems.push(`${count(left.trash.length, 'interrupted discard or restore', 'interrupted discards or restores')} still in the trash folder (${left.trash.join(', ')}).`);
  if (left.provisioning.length) problems.push(`${count(left.provisioning.length, 'sandbox')} still marked provisioning (${left.provisioning.join(', ')}).`);
  return problems;
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
