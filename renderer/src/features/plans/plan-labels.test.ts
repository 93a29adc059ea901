import { describe, expect, it } from 'vitest';
import { runStatusLabel, shortId, timeAgo } from './plan-labels.ts';

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
