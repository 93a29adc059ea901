/**
 * What a user can do about an error, as data: the core's message names the action in the app's
 * words, and `details.hints` lets each host add its own way of doing it (the CLI's flag or command).
 */
import type { ResolutionValue } from './dto.ts';

/** One action that settles an error, with what a host needs to spell it. */
export type ErrorHint =
  /** Settle paths at commit: keep the original, take the sandbox's version or merge. */
  | { action: 'resolve'; paths: string[]; choices: ResolutionValue[] }
  /** Discard a sandbox whose changes cannot be determined. */
  | { action: 'discard-anyway' }
  /** Remove a resource that projects link or tools name. */
  | { action: 'remove-anyway' }
  /** Import a tool file over tools registered under the same names. */
  | { action: 'replace-tools' }
  /** Commit the files without the git commit. */
  | { action: 'commit-without-git' }
  /** Look at a plan's changes (or, without a plan, at some plan's). */
  | { action: 'list-changes'; plan?: string }
  /** Link a resource of a type to a project, so a slot can bind to it. */
  | { action: 'link-resource'; project: string; type: string }
  /** Set a link's alias to a slot's name, so that slot picks it among several. */
  | { action: 'set-alias'; project: string; alias: string }
  | { action: 'list-plans' }
  | { action: 'list-projects' }
  | { action: 'list-resources' }
  | { action: 'list-trash' }
  | { action: 'import-tool' }
  /** Choose a resource for parameter slots that have none. */
  | { action: 'give-params'; slots: string[] }
  | { action: 'add-type'; type: string }
  | { action: 'add-resource'; name: string; type: string }
  /** Change a resource's folder (the resource named when the core knows it). */
  | { action: 'update-resource'; name?: string }
  /** Keep Bindery's data somewhere else. */
  | { action: 'move-data-dir' };

/** The hints an error's details carry (`details.hints`), or none. */
export function errorHints(details: unknown): ErrorHint[] {
  if (typeof details !== 'object' || details === null) return [];
  const hints = (details as { hints?: unknown }).hints;
  if (!Array.isArray(hints)) return [];
  return hints.filter((hint): hint is ErrorHint => typeof hint === 'object' && hint !== null && typeof (hint as { action?: unknown }).action === 'string');
}
