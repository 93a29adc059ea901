/**
 * Two processes committing into one original at once (issue 20, item 1): a lock shared by every
 * process on the data directory keeps the second out from its first check to the first's record,
 * so the winner's reported success stands, the loser says why it wrote nothing, and the registry,
 * journal, activity log and undo agree. bench/commit-soak.ts runs many more rounds.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { raceRound } from '../../testing/sandbox/commit-race.ts';

describe('two processes committing at once', () => {
  it('both past their check before either writes (staged): the second waits, then finds nothing left to commit', async () => {
    const report = await raceRound(tempDir('bindery-race-'), 'same', { staged: true, files: 150 });
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => r.kind)).toEqual(['committed', 'nothing']);
  }, 60_000);

  it('two sandboxes of one original, staged: the second waits, then reports the conflict', async () => {
    const report = await raceRound(tempDir('bindery-race-'), 'two', { staged: true, files: 150 });
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => r.kind)).toEqual(['committed', 'error']);
  }, 60_000);

  it.each([1, 2])('soak round %i: started together, the original is exactly the winner\'s', async (round) => {
    const report = await raceRound(tempDir('bindery-race-'), round % 2 === 0 ? 'two' : 'same', { files: 150 });
    expect(report.problems).toEqual([]);
  }, 60_000);
});
