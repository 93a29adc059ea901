/**
 * One folder registered as two resources is allowed (say, one as git-checkout, one as
 * fs-directory) but is usually a slip, so registering it again warns and names the other one.
 * Pure: the service and the register dialog apply the same rule.
 */
import type { Resource } from './model.ts';

/** The resources registered at `location` (an absolute path as the registry stores it), except `exceptId`. */
export function resourcesAt<R extends Pick<Resource, 'id' | 'location'>>(resources: readonly R[], location: string, exceptId?: string): R[] {
  return resources.filter((resource) => resource.location === location && resource.id !== exceptId);
}

/** The warning for a folder that the named resources already point at, or null for none. */
export function sameFolderWarning(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  const quoted = names.map((name) => `"${name}"`);
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
  return `This folder is already registered as ${list}: both resources point at the same files. Remove one if it was registered twice by mistake.`;
}
