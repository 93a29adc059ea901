import { describe, expect, it } from 'vitest';
import { BinderyError, ConflictError } from '../../../shared/errors.ts';
import { commitNotice, orphanFailure, orphanSuccess } from './orphan-outcome.ts';

describe('orphanFailure', () => {
  it('says a failure the host answered with, as an error', () => {
    const error = new ConflictError('The original changed since the review was loaded.');
    expect(orphanFailure('Commit to local/site', error)).toEqual({
      tone: 'error',
      message: 'Commit to local/site failed: The original changed since the review was loaded.',
    });
  });

  it('does not call a request the host never answered a failure: it may have been done', () => {
    const error = new BinderyError('io_error', 'Bindery is not reachable (Failed to fetch).', { unreachable: true });
    const notice = orphanFailure('Commit to local/site', error);
    expect(notice.tone).toBe('warning');
    expect(notice.message).toMatch(/^Commit to local\/site: Bindery did not answer, so whether it was done is not known/);
  });
});

describe('orphanSuccess', () => {
  it("uses the action's own words, or says it was done", () => {
    expect(orphanSuccess('Undo', null)).toEqual({ tone: 'success', message: 'Undo: done.' });
    expect(orphanSuccess('Undo', 'Restored 2 files.')).toEqual({ tone: 'success', message: 'Restored 2 files.' });
    expect(orphanSuccess('Commit', { tone: 'warning', message: 'Nothing written.' })).toEqual({ tone: 'warning', message: 'Nothing written.' });
  });
});

describe('commitNotice', () => {
  it('joins the summaries, and warns when nothing was committed', () => {
    const done = { committed: true, summary: 'Committed 2 files to local/site.' };
    const skipped = { committed: false, summary: 'Nothing committed to local/docs: 1 conflict.' };
    expect(commitNotice([done, skipped])).toEqual({ tone: 'success', message: `Commit finished. ${done.summary} ${skipped.summary}` });
    expect(commitNotice([skipped]).tone).toBe('warning');
  });
});
