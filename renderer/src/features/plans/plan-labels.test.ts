import { describe, expect, it } from 'vitest';
import { clockTime, kindLabel, runStatusLabel, shortId, timeAgo } from './plan-labels.ts';

describe('plan labels', () => {
  it('says how long ago in words', () => {
    const now = Date.parse('2025-03-01T12:00:00Z');
    expect(timeAgo('2025-03-01T11:59:30Z', now)).toBe('just now');
    expect(timeAgo('2025-03-01T11:55:00Z', now)).toBe('5 min ago');
    expect(timeAgo('2025-03-01T09:00:00Z', now)).toBe('3 h ago');
    expect(timeAgo('not a time', now)).toBe('not a time');
  });

  it('describes run endings', () => {
    expect(runStatusLabel('exited', 0)).toBe('Finished (exit 0)');
    expect(runStatusLabel('failed', 2)).toBe('Failed (exit 2)');
    expect(runStatusLabel('failed', null)).toBe('Failed to start');
  });

  it('shortens ids to their tail', () => {
    expect(shortId('01JABCDEFGHJKMNPQRSTVWXYZ0')).toBe('stvwxyz0');
  });
});

describe('activity labels', () => {
  it('tones kinds by what they mean', () => {
    expect(kindLabel('commit.undone')).toEqual({ label: 'commit undone', tone: 'badge-warning' });
    expect(kindLabel('commit.waiting').tone).toBe('badge-warning');
    expect(kindLabel('commit.abandoned').tone).toBe('badge-warning');
    expect(kindLabel('commit.rolled_back')).toEqual({ label: 'commit rolled back', tone: 'badge-warning' });
    expect(kindLabel('commit.recovered').tone).toBe('badge-success');
    expect(kindLabel('plan.partially_committed').tone).toBe('badge-warning');
    expect(kindLabel('plan.committed').tone).toBe('badge-success');
    expect(kindLabel('run.failed').tone).toBe('badge-danger');
    expect(kindLabel('plan.created').tone).toBe('badge-accent');
  });

  it('shows the time of day for today, with the date otherwise', () => {
    const now = new Date(2025, 2, 1, 15, 0, 0);
    expect(clockTime(new Date(2025, 2, 1, 14, 3, 22).toISOString(), now)).toMatch(/(14|02).03.22/);
    expect(clockTime(new Date(2025, 1, 27, 9, 5, 0).toISOString(), now)).toMatch(/27.*0?9.05.00/);
  });
});
