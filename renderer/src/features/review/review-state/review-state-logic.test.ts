import { describe, expect, it } from 'vitest';
import type { ChangedFile } from '../../../../../shared/dto.ts';
import type { ReviewState } from '../../../../../shared/review-dto.ts';
import { changedFile } from '../../../../../shared/testing/changed-file.ts';
import { reviewKey, reviewShortcuts } from '../review-keys.ts';
import { endedRuns, markState, runEndPollMs, runLabel, scopeChoices, scopedChanges, scopeMeaning, validScope, viewedCount } from './review-state-logic.ts';

const change = (path: string): ChangedFile => changedFile(path);
const marks = [
  { path: 'a.ts', viewedAt: '2026-01-01T10:00:00.000Z', stale: false },
  { path: 'b.ts', viewedAt: '2026-01-01T10:01:00.000Z', stale: true },
  { path: 'gone.ts', viewedAt: '2026-01-01T10:02:00.000Z', stale: true },
];
const run = (runId: string, startedAt: string, endedAt: string | null) => ({ runId, sandboxId: 's', startedAt, endedAt });
const state = (over: Partial<ReviewState>): ReviewState => ({ sandboxId: 's', marks: [], lastReviewAt: null, runs: [], scopePaths: null, ...over });

describe('viewed marks on screen', () => {
  it('tells viewed, changed since viewed and unmarked files apart', () => {
    expect(markState(marks, 'a.ts')).toBe('viewed');
    expect(markState(marks, 'b.ts')).toBe('stale');
    expect(markState(marks, 'c.ts')).toBeNull();
    expect(markState(undefined, 'a.ts')).toBeNull();
  });

  it('counts only fresh marks of files still in the list', () => {
    expect(viewedCount(['a.ts', 'b.ts', 'c.ts'].map(change), marks)).toBe(1);
    expect(viewedCount([], marks)).toBe(0);
  });
});

describe('scopes', () => {
  it('offers "since my last review" once a file was marked, and runs only where the tool ran more than once', () => {
    expect(scopeChoices(null)).toEqual({ sinceReview: false, runs: false });
    expect(scopeChoices(state({ lastReviewAt: marks[0]!.viewedAt, runs: [run('r1', '2026-01-01T09:00:00Z', '2026-01-01T09:01:00Z')] }))).toEqual({ sinceReview: true, runs: false });
    // A run still working has no end checkpoint: it does not count.
    const two = state({ runs: [run('r1', '2026-01-01T09:00:00Z', '2026-01-01T09:01:00Z'), run('r2', '2026-01-01T09:05:00Z', null)] });
    expect(scopeChoices(two).runs).toBe(false);
    expect(endedRuns(two).map((r) => r.runId)).toEqual(['r1']);
  });

  it('falls back to all changes when the chosen scope no longer applies', () => {
    const runs = [run('r1', '2026-01-01T09:00:00Z', '2026-01-01T09:01:00Z'), run('r2', '2026-01-01T09:05:00Z', '2026-01-01T09:06:00Z')];
    expect(validScope({ kind: 'since_review' }, state({}))).toEqual({ kind: 'all' });
    expect(validScope({ kind: 'run', runId: 'r2' }, state({ runs }))).toEqual({ kind: 'run', runId: 'r2' });
    expect(validScope({ kind: 'run', runId: 'r9' }, state({ runs }))).toEqual({ kind: 'all' });
  });

  it('narrows the list to the scope paths, and shows everything until they are known', () => {
    const all = ['a.ts', 'b.ts', 'c.ts'].map(change);
    expect(scopedChanges(all, { kind: 'since_review' }, ['c.ts', 'a.ts']).map((c) => c.path)).toEqual(['a.ts', 'c.ts']);
    expect(scopedChanges(all, { kind: 'since_review' }, undefined)).toBe(all);
    expect(scopedChanges(all, { kind: 'all' }, ['a.ts'])).toBe(all);
  });

  it('names a run by its place and start time', () => {
    const runs = [run('r1', '2026-01-01T14:02:00Z', '2026-01-01T14:03:00Z'), run('r2', '2026-01-01T15:30:00Z', null)];
    expect(runLabel(runs, 'r1', 'UTC')).toBe('Run 1 of 2 (14:02)');
    expect(runLabel(runs, 'r2', 'UTC')).toBe('Run 2 of 2 (15:30)');
  });
});

describe('the v key', () => {
  const key = (over: Partial<Parameters<typeof reviewKey>[0]>) => ({ key: 'v', altKey: false, ctrlKey: false, metaKey: false, defaultPrevented: false, target: null, ...over });
  it('toggles the viewed mark, and is listed in the help', () => {
    expect(reviewKey(key({}), false)).toBe('toggle-viewed');
    expect(reviewKey(key({ ctrlKey: true }), false)).toBeNull();
    expect(reviewShortcuts('Ctrl').flatMap((g) => g.shortcuts).some((s) => s.keys.includes('v'))).toBe(true);
  });
});

describe('what a scope means, and waiting for a run to end', () => {
  it('says under the switch that "since my last review" leaves out older unmarked files', () => {
    const reviewed = state({ lastReviewAt: '2026-01-01T10:02:00.000Z' });
    expect(scopeMeaning({ kind: 'since_review' }, reviewed, 'UTC')).toBe(
      'Files written after you last marked a file viewed (Jan 1, 10:02), and viewed files that changed since. Files you never marked that were last written before then are only in All changes.',
    );
    expect(scopeMeaning({ kind: 'run', runId: 'r1' }, reviewed)).toMatch(/^Files this run of the tool changed/);
    expect(scopeMeaning({ kind: 'all' }, reviewed)).toBeNull();
  });

  it('asks for a missing end soon after the start, then more rarely, and stops after a day', () => {
    const start = Date.parse('2026-01-01T09:00:00Z');
    const open = [run('r1', '2026-01-01T08:00:00Z', '2026-01-01T08:01:00Z'), run('r2', '2026-01-01T09:00:00Z', null)];
    expect(runEndPollMs(open, start + 1000)).toBe(1500);
    expect(runEndPollMs(open, start + 10 * 60_000)).toBe(30_000);
    expect(runEndPollMs(open, start + 2 * 3_600_000)).toBe(60_000);
    expect(runEndPollMs(open, start + 25 * 3_600_000)).toBeNull();
    expect(runEndPollMs(open.slice(0, 1), start)).toBeNull();
  });
});
