/** Checks a folder before it is registered: exists, is a directory, git work-tree root or not. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../../shared/errors.ts';
import { workTreeRoot } from '../git/index.ts';

/** What Bindery knows about a folder someone wants to register. */
export interface LocationInfo {
  /** Absolute, symlinks resolved. */
  path: string;
  /** The top of the git work tree containing it, or null outside git. */
  gitRoot: string | null;
}

/** Resolves and checks a location; throws a ValidationError that says what to do. */
export async function inspectLocation(location: string): Promise<LocationInfo> {
  if (!location.trim()) throw new ValidationError('The location is empty: give the path of a directory.', { field: 'location' });
  const absolute = path.resolve(location);
  let real: string;
  try {
    real = await fs.realpath(absolute);
  } catch {
    throw new ValidationError(`Location ${absolute} does not exist: check the path, or create the directory first.`, {
      field: 'location',
      location: absolute,
    });
  }
  const stat = await fs.stat(real);
  if (!stat.isDirectory()) {
    throw new ValidationError(`Location ${real} is a file, not a directory: register the directory that holds it.`, {
      field: 'location',
      location: real,
    });
  }
  return { path: real, gitRoot: await workTreeRoot(real) };
}

/** The work-tree root containing a folder, or null outside git (for callers that inspect without registering). */
export { workTreeRoot as gitTopLevel } from '../git/index.ts';

/** Refuses a `git-checkout` location that is not the root of a git work tree. */
export function assertGitRoot(info: LocationInfo): void {
  if (info.gitRoot === info.path) return;
  const where = info.gitRoot
    ? `is inside the git work tree ${info.gitRoot} but is not its root: register ${info.gitRoot} instead`
    : 'is not a git work tree';
  throw new ValidationError(`Location ${info.path} ${where}, or use type fs-directory for a plain directory.`, {
    field: 'location',
    location: info.path,
    gitRoot: info.gitRoot,
  });
}
