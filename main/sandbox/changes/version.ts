/**
 * The version of a sandbox's change list (issue 20): a short hash of what a person reviewing the
 * list saw (each change's paths, kind, types, modes and drift, and the content ids of its new and
 * old side), with the count of changes in front. Every process computes the same version from the
 * same disk, so a commit can refuse a list that changed since the review that asked for it.
 */
import { createHash } from 'node:crypto';
import { ConflictError, ValidationError } from '../../../shared/errors.ts';
import type { BaseInfo, InspectedChange, PathState } from './detect.ts';
import type { ChangedFile, SandboxInfo } from '../../../shared/dto.ts';

/** A change with the content ids it was described from (`sideIds`; a rename's two halves joined by `|`). */
export interface VersionedChange {
  change: ChangedFile;
  ids: string;
}

import { VERSION_PATTERN } from '../../../shared/change-version.ts';

export { VERSION_PATTERN };

/**
 * The content ids of one path: what the sandbox holds now (the strategy's own content identity,
 * which change detection computes anyway) and what the base held there (fixed for the sandbox's life).
 */
export function sideIds(state: PathState, strategy: SandboxInfo['strategy']): string {
  const now = state.sandbox;
  const current = now.type === null || now.type === 'other' ? '-' : `${now.type}:${strategy === 'git_worktree' ? now.blobId : now.sha256}`;
  return `${current}<${baseId(state.base)}`;
}

function baseId(base: BaseInfo): string {
  if (base === null) return '-';
  if (base.kind === 'git') return `${base.entry.type}:${base.entry.blob}`;
  // A manifest entry's stat names the base's copy; its hash, where there is one, may be added later.
  const entry = base.entry;
  return `${entry.type}:${entry.size}@${entry.mtimeMs}#${entry.ino}${entry.target === undefined ? '' : `>${entry.target}`}`;
}

/** What the version takes from one change: two changes with the same line look the same in a review. */
export function versionLine({ change: c, ids }: VersionedChange): string {
  return JSON.stringify([c.path, c.oldPath, c.kind, c.oldType, c.newType, c.oldMode, c.newMode, c.drift, ids]);
}

/** The version of a change list. Line counts and sizes are left out: they follow from the content ids. */
export function changeListVersion(changes: readonly VersionedChange[]): string {
  const lines = changes.map(versionLine);
  lines.sort();
  const hash = createHash('sha256');
  for (const line of lines) hash.update(line).update('\n');
  return `${changes.length}-${hash.digest('hex').slice(0, 16)}`;
}

/** The version of the list a commit works from: the same as the list's when the disk is the same. */
export function inspectedVersion(inspected: readonly InspectedChange[], strategy: SandboxInfo['strategy']): string {
  return changeListVersion(
    inspected.map((item) => ({
      change: item.change,
      ids: item.source ? `${sideIds(item.target, strategy)}|${sideIds(item.source, strategy)}` : sideIds(item.target, strategy),
    })),
  );
}

/**
 * The version a commit of sandbox `id` expects, from a plan-wide map: none without a map; a
 * sandbox the map leaves out was reviewed with no changes (the empty list's version).
 */
export function expectedFor(expectedVersions: Readonly<Record<string, string>> | undefined, id: string): string | undefined {
  return expectedVersions ? (expectedVersions[id] ?? changeListVersion([])) : undefined;
}

/** The number of changes a version counts, or null when it is not a version. */
export function versionCount(version: string): number | null {
  const match = VERSION_PATTERN.exec(version);
  return match ? Number(match[1]) : null;
}

/**
 * Refuses a commit when the change list it works from (`actual`) is not the one the person
 * reviewed (`expected`): nothing is written, and the message gives both counts.
 */
export function assertReviewed(expected: string, actual: string, sandbox: Pick<SandboxInfo, 'id' | 'resourceName'>): void {
  if (expected === actual) return;
  const reviewed = versionCount(expected);
  if (reviewed === null) {
    throw new ValidationError(`"${expected}" is not a change-list version: list the changes again and commit with the version it shows.`, { version: expected });
  }
  const now = versionCount(actual) ?? 0;
  const what =
    now === reviewed
      ? `The changes in the sandbox of ${sandbox.resourceName} are not the ones you reviewed (${changes(now)}, as before)`
      : `The sandbox of ${sandbox.resourceName} has ${changes(now)} now, ${reviewed} when you reviewed it`;
  throw new ConflictError(`${what}: review again, then commit. Nothing was written.`, {
    reason: 'changes_changed',
    sandboxId: sandbox.id,
    reviewed,
    now,
    version: actual,
  });
}

function changes(count: number): string {
  return `${count} change${count === 1 ? '' : 's'}`;
}
