/**
 * The words for an outcome whose dialog is gone: closed by navigation, or by "Stop waiting",
 * before its request answered. The request still ends, and the person must still learn how: a
 * notice (a toast kept until dismissed) says it, since no dialog is left to show it.
 */
import { BinderyError } from '../../../shared/errors.ts';
import { errorMessage } from './errors.ts';

/** A corner notice: its text and tone. */
export interface Notice {
  message: string;
  tone: 'success' | 'warning' | 'error';
}

/** The notice of a failed request: said to be unknown when the host never answered, a failure otherwise. */
export function orphanFailure(label: string, error: unknown): Notice {
  if (unreachable(error)) {
    return {
      tone: 'warning',
      message: `${label}: Bindery did not answer, so whether it was done is not known. Look again once Bindery is back.`,
    };
  }
  return { tone: 'error', message: `${label} failed: ${errorMessage(error)}` };
}

/** The notice of a success: the action's own words when it has them, else that it was done. */
export function orphanSuccess(label: string, said: Notice | string | null | undefined): Notice {
  if (said === null || said === undefined) return { tone: 'success', message: `${label}: done.` };
  return typeof said === 'string' ? { tone: 'success', message: said } : said;
}

// The transport marks a call the host never answered (the fetch itself failed) this way.
function unreachable(error: unknown): boolean {
  if (!(error instanceof BinderyError)) return false;
  const details = error.details as { unreachable?: unknown } | null | undefined;
  return details?.unreachable === true;
}

/** The notice of a commit: each resource's summary, a warning when none was committed (as the review's outcome). */
export function commitNotice(reports: ReadonlyArray<{ committed: boolean; summary: string }>): Notice {
  // The summaries name the resource and the files, not the action: the notice stands alone.
  const message = ['Commit finished.', ...reports.map((r) => r.summary)].join(' ');
  return { tone: reports.some((r) => r.committed) ? 'success' : 'warning', message };
}
