/** Words and tones for plan and sandbox states, and times as people read them. */
import type { PlanStatusValue, RunStatus, SandboxStatusValue } from '../../../../shared/dto.ts';

/** A plan status as a label and a badge tone. */
export const PLAN_STATUS: Record<PlanStatusValue, { label: string; tone: string }> = {
  provisioning: { label: 'Provisioning', tone: 'badge-accent' },
  ready: { label: 'Ready for review', tone: 'badge-accent' },
  committed: { label: 'Committed', tone: 'badge-success' },
  partially_committed: { label: 'Partly committed', tone: 'badge-warning' },
  discarded: { label: 'Discarded', tone: '' },
  failed: { label: 'Failed', tone: 'badge-danger' },
};

/** A sandbox status as a label and a badge tone. */
export const SANDBOX_STATUS: Record<SandboxStatusValue, { label: string; tone: string }> = {
  provisioning: { label: 'provisioning', tone: 'badge-accent' },
  ready: { label: 'ready', tone: 'badge-accent' },
  committed: { label: 'committed', tone: 'badge-success' },
  discarded: { label: 'discarded', tone: '' },
  missing: { label: 'missing', tone: 'badge-danger' },
  failed: { label: 'failed', tone: 'badge-danger' },
};

/** A run status as a sentence fragment. */
export function runStatusLabel(status: RunStatus, exitCode: number | null): string {
  switch (status) {
    case 'running':
      return 'Running…';
    case 'exited':
      return 'Finished (exit 0)';
    case 'failed':
      return exitCode === null ? 'Failed to start' : `Failed (exit ${exitCode})`;
    case 'stopped':
      return 'Stopped';
    case 'timed_out':
      return 'Timed out';
  }
}

/** "just now", "5 min ago", "3 h ago", else the local date and time. */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(then).toLocaleString();
}

/** Local date and time, for tooltips and logs. */
export function fullTime(iso: string): string {
  const then = Date.parse(iso);
  return Number.isNaN(then) ? iso : new Date(then).toLocaleString();
}

/** A short form of a plan id (its random tail), as in git short hashes. */
export function shortId(id: string): string {
  return id.slice(-8).toLowerCase();
}

/** The time of day for today's entries, else the date and time, as a log shows it. */
export function clockTime(iso: string, now: Date = new Date()): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return iso;
  const time = then.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return then.toDateString() === now.toDateString()
    ? time
    : `${then.toLocaleDateString([], { month: 'short', day: 'numeric' })}, ${time}`;
}

/** An activity kind ("commit.undone") as words and a badge tone: failures red, reversals amber, successes green. */
export function kindLabel(kind: string): { label: string; tone: string } {
  const label = kind.replace(/[._]/g, ' ');
  if (/failed|missing/.test(kind)) return { label, tone: 'badge-danger' };
  if (/undo|undone|discard|partially|stopped|timed_out|waiting|rolled_back|abandoned/.test(kind)) return { label, tone: 'badge-warning' };
  if (/commit|restored|exited|ready/.test(kind)) return { label, tone: 'badge-success' };
  return { label, tone: 'badge-accent' };
}
