import { describe, expect, it } from 'vitest';
import type { ChangedFile, SandboxChangeList } from '../../../shared/dto.ts';
import { changedFile } from '../../../shared/testing/changed-file.ts';
import { changeCounts, pendingChanges, sumCounts } from './change-counts.ts';

function list(drifts: ChangedFile['drift'][]): SandboxChangeList {
  return {
    sandboxId: 'S',
    planId: 'P',
    resourceName: 'r',
    strategy: 'git_worktree',
    access: 'read_write',
    violation: null,
    version: `${drifts.length}-0000000000000000`,
    changes: drifts.map((drift, i) => changedFile(`f${i}`, { drift, oldMode: null, newMode: null })),
  };
}

describe('change counts', () => {
  it('counts committed files apart from the pending ones, which the list shows', () => {
    const after = list(['applied', 'applied', 'clean', 'conflict']);
    expect(changeCounts(after)).toEqual({ pending: 2, conflicts: 1, committed: 2 });
    expect(pendingChanges(after).map((c) => c.path)).toEqual(['f2', 'f3']);
    // The same list gives the same array, so screens do not render again for nothing.
    expect(pendingChanges(after)).toBe(pendingChanges(after));
  });

  it('adds a plan up from its sandboxes, and counts nothing while a list is not loaded', () => {
    expect(sumCounts([list(['clean']), list(['applied', 'conflict'])])).toEqual({ pending: 2, conflicts: 1, committed: 1 });
    expect(changeCounts(null)).toEqual({ pending: 0, conflicts: 0, committed: 0 });
  });
});
